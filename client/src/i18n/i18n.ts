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

/** A text's words of the account (translations, issue 36 item 2), by message id. */
export type TextOverrides = ReadonlyMap<string, Partial<Record<Language, string>>>;

/** The account's words now: over the catalogues, in every language they give. */
let overrides: TextOverrides = new Map();

/**
 * An override's words as a compiled message: text with `{name}` placeholders (as the catalogues
 * write them) becomes lingui's token list; a text without any stays a string.
 */
export function compileWords(text: string): string | (string | [string])[] {
  const parts = text.split(/\{([A-Za-z0-9_]+)\}/);
  if (parts.length === 1) return text;
  const tokens: (string | [string])[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 1) tokens.push([part]);
    else if (part !== '') tokens.push(part);
  });
  return tokens;
}

function overrideMessages(language: Language): Messages {
  const out: Messages = {};
  for (const [id, texts] of overrides) {
    const text = texts[language];
    if (text !== undefined && text.trim() !== '') out[id] = compileWords(text);
  }
  return out;
}

/**
 * The account's words (translations) to show over the catalogues: the active language is loaded
 * again with them, so every open screen re-renders with the new words (and a removed one shows the
 * catalogue's again) without a reload.
 */
export function setTextOverrides(next: TextOverrides): void {
  overrides = next;
  const locale = i18n.locale as string | undefined;
  if (locale !== undefined && locale !== '') void activateLanguage(locale as Language);
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
  const messages: Messages = Object.assign(
    {},
    ...all.slice(1),
    all[0],
    overrideMessages(language),
  ) as Messages;
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
  if (locale !== undefined)
    i18n.load(locale, { ...(await messagesIn(of, locale)), ...overrideMessages(locale) });
}

export { i18n };
