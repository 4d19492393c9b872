import { i18n, type Messages } from '@lingui/core';
import type { Language } from '@plant/shared-schema';

/** One catalogue per language, each a chunk of its own (lingui's vite plugin compiles the .po). */
export type Catalogues = Record<Exclude<Language, 'plain'>, () => Promise<{ messages: Messages }>>;

/**
 * The app's catalogues: every text but those of the areas that keep their own (below). Only the
 * chosen language is loaded.
 */
const catalogues: Catalogues = {
  en: () => import('../locales/en/messages.po'),
  de: () => import('../locales/de/messages.po'),
  pt: () => import('../locales/pt/messages.po'),
  ru: () => import('../locales/ru/messages.po'),
};

/**
 * The catalogues of areas loaded so far (issue 32: the 3D area's): an area whose texts only its
 * own screens show keeps them in a catalogue beside its code (lingui.config.ts), added when its
 * chunk loads, so that no first visit carries them.
 */
const areaCatalogues: Catalogues[] = [];

/**
 * Plain is for translators: every text shows its message id (the key in the .po files), so a
 * translator can tell which entry a place on screen comes from. Numbers and dates stay English.
 */
async function messagesIn(of: Catalogues, language: Language): Promise<Messages> {
  if (language !== 'plain') return (await of[language]()).messages;
  const { messages } = await of.en();
  return Object.fromEntries(Object.keys(messages).map((id) => [id, id]));
}

/** Counts the requests: only the latest one activates its language. */
let requests = 0;

/**
 * Loads and activates a language (the app's catalogue and every area's added so far); the
 * page's `lang` follows it. Chosen quickly one after another, the last choice wins, whichever
 * catalogue arrives last.
 */
export async function activateLanguage(language: Language): Promise<void> {
  const request = ++requests;
  const all = await Promise.all(
    [catalogues, ...areaCatalogues].map((of) => messagesIn(of, language)),
  );
  if (request !== requests) return;
  // An area came while these loaded: its texts too, or they would be lost.
  if (all.length <= areaCatalogues.length) return activateLanguage(language);
  const messages: Messages = Object.assign({}, ...all.slice(1), all[0]) as Messages;
  if (language === 'plain') {
    i18n.loadAndActivate({ locale: 'plain', locales: ['en'], messages });
  } else {
    i18n.loadAndActivate({ locale: language, messages });
  }
  document.documentElement.lang = language === 'plain' ? 'en' : language;
}

/**
 * Adds an area's catalogues: its texts in the active language now (the area's chunk awaits this
 * before its screens render, so they never show a message id), and with every later choice.
 */
export async function addAreaCatalogues(of: Catalogues): Promise<void> {
  areaCatalogues.push(of);
  // Before the first activation there is no language yet: that one loads it.
  const locale = i18n.locale as Language | undefined;
  if (locale !== undefined) i18n.load(locale, await messagesIn(of, locale));
}

export { i18n };
