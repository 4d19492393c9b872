import { i18n, type Messages } from '@lingui/core';
import type { Language } from '@plant/shared-schema';

/**
 * The catalogues, one chunk each (lingui's vite plugin compiles the .po files). Only the chosen
 * language is loaded.
 */
const catalogues: Record<Exclude<Language, 'plain'>, () => Promise<{ messages: Messages }>> = {
  en: () => import('../locales/en/messages.po'),
  de: () => import('../locales/de/messages.po'),
  pt: () => import('../locales/pt/messages.po'),
  ru: () => import('../locales/ru/messages.po'),
};

/**
 * Plain is for translators: every text shows its message id (the key in the .po files), so a
 * translator can tell which entry a place on screen comes from. Numbers and dates stay English.
 */
async function plainMessages(): Promise<Messages> {
  const { messages } = await catalogues.en();
  return Object.fromEntries(Object.keys(messages).map((id) => [id, id]));
}

/** Counts the requests: only the latest one activates its language. */
let requests = 0;

/**
 * Loads and activates a language; the page's `lang` follows it. Chosen quickly one after another,
 * the last choice wins, whichever catalogue arrives last.
 */
export async function activateLanguage(language: Language): Promise<void> {
  const request = ++requests;
  const messages =
    language === 'plain' ? await plainMessages() : (await catalogues[language]()).messages;
  if (request !== requests) return;
  if (language === 'plain') {
    i18n.loadAndActivate({ locale: 'plain', locales: ['en'], messages });
  } else {
    i18n.loadAndActivate({ locale: language, messages });
  }
  document.documentElement.lang = language === 'plain' ? 'en' : language;
}

export { i18n };
