import type { Messages } from '@lingui/core';
import type { Language } from '@plant/shared-schema';

/*
 * Every catalogue of the product (issue 36 item 2: the translations list shows every text): the
 * app's and each area's (lingui.config.ts), per language, loaded only by the translations page.
 * all-catalogues.test.ts keeps the list equal to the folders with catalogues.
 */

type Loader = () => Promise<{ messages: Messages }>;

/** The folders of the areas with a catalogue of their own (client/src/features/{area}/locales). */
export const CATALOGUE_AREAS = [
  'api-reference',
  'developer',
  'feedback',
  'helpcenter',
  'service',
  'themes',
  'threed',
  'versions',
  'translations',
  'integration',
  'inspection',
  'tasks',
  'diagrams',
  'security-insights',
  'two-factor',
] as const;

const LOADERS: Record<Exclude<Language, 'plain'>, readonly Loader[]> = {
  en: [
    () => import('../../locales/en/messages.po'),
    () => import('../api-reference/locales/en/messages.po'),
    () => import('../developer/locales/en/messages.po'),
    () => import('../feedback/locales/en/messages.po'),
    () => import('../helpcenter/locales/en/messages.po'),
    () => import('../service/locales/en/messages.po'),
    () => import('../themes/locales/en/messages.po'),
    () => import('../threed/locales/en/messages.po'),
    () => import('../versions/locales/en/messages.po'),
    () => import('./locales/en/messages.po'),
    () => import('../integration/locales/en/messages.po'),
    () => import('../inspection/locales/en/messages.po'),
    () => import('../tasks/locales/en/messages.po'),
    () => import('../diagrams/locales/en/messages.po'),
    () => import('../security-insights/locales/en/messages.po'),
    () => import('../two-factor/locales/en/messages.po'),
  ],
  de: [
    () => import('../../locales/de/messages.po'),
    () => import('../api-reference/locales/de/messages.po'),
    () => import('../developer/locales/de/messages.po'),
    () => import('../feedback/locales/de/messages.po'),
    () => import('../helpcenter/locales/de/messages.po'),
    () => import('../service/locales/de/messages.po'),
    () => import('../themes/locales/de/messages.po'),
    () => import('../threed/locales/de/messages.po'),
    () => import('../versions/locales/de/messages.po'),
    () => import('./locales/de/messages.po'),
    () => import('../integration/locales/de/messages.po'),
    () => import('../inspection/locales/de/messages.po'),
    () => import('../tasks/locales/de/messages.po'),
    () => import('../diagrams/locales/de/messages.po'),
    () => import('../security-insights/locales/de/messages.po'),
    () => import('../two-factor/locales/de/messages.po'),
  ],
  pt: [
    () => import('../../locales/pt/messages.po'),
    () => import('../api-reference/locales/pt/messages.po'),
    () => import('../developer/locales/pt/messages.po'),
    () => import('../feedback/locales/pt/messages.po'),
    () => import('../helpcenter/locales/pt/messages.po'),
    () => import('../service/locales/pt/messages.po'),
    () => import('../themes/locales/pt/messages.po'),
    () => import('../threed/locales/pt/messages.po'),
    () => import('../versions/locales/pt/messages.po'),
    () => import('./locales/pt/messages.po'),
    () => import('../integration/locales/pt/messages.po'),
    () => import('../inspection/locales/pt/messages.po'),
    () => import('../tasks/locales/pt/messages.po'),
    () => import('../diagrams/locales/pt/messages.po'),
    () => import('../security-insights/locales/pt/messages.po'),
    () => import('../two-factor/locales/pt/messages.po'),
  ],
  ru: [
    () => import('../../locales/ru/messages.po'),
    () => import('../api-reference/locales/ru/messages.po'),
    () => import('../developer/locales/ru/messages.po'),
    () => import('../feedback/locales/ru/messages.po'),
    () => import('../helpcenter/locales/ru/messages.po'),
    () => import('../service/locales/ru/messages.po'),
    () => import('../themes/locales/ru/messages.po'),
    () => import('../threed/locales/ru/messages.po'),
    () => import('../versions/locales/ru/messages.po'),
    () => import('./locales/ru/messages.po'),
    () => import('../integration/locales/ru/messages.po'),
    () => import('../inspection/locales/ru/messages.po'),
    () => import('../tasks/locales/ru/messages.po'),
    () => import('../diagrams/locales/ru/messages.po'),
    () => import('../security-insights/locales/ru/messages.po'),
    () => import('../two-factor/locales/ru/messages.po'),
  ],
};

/** Every text of the product in one language, by message id (the app's wins over an area's). */
export async function allMessages(language: Exclude<Language, 'plain'>): Promise<Messages> {
  const all = await Promise.all(LOADERS[language].map((load) => load()));
  return Object.assign({}, ...all.slice(1).map((m) => m.messages), all[0]?.messages) as Messages;
}
