import { addAreaCatalogues } from '../../i18n/i18n';

/*
 * The API reference's catalogues (lingui.config.ts): its texts come with its chunk, in the
 * active language, before its screens render (they left every first visit's catalogue so that
 * the device details page stays within its budget). Every page module of the area imports this
 * first.
 */
await addAreaCatalogues({
  en: () => import('./locales/en/messages.po'),
  de: () => import('./locales/de/messages.po'),
  pt: () => import('./locales/pt/messages.po'),
  ru: () => import('./locales/ru/messages.po'),
});
