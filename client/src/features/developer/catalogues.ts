import { addAreaCatalogues } from '../../i18n/i18n';

/*
 * The developer area (OAuth consent, access tokens)'s catalogues (lingui.config.ts): its texts come with its chunk, in the active
 * language, before its screens render. Both of its pages (consent-page, access-tokens-page) import this first.
 */
await addAreaCatalogues({
  en: () => import('./locales/en/messages.po'),
  de: () => import('./locales/de/messages.po'),
  pt: () => import('./locales/pt/messages.po'),
  ru: () => import('./locales/ru/messages.po'),
});
