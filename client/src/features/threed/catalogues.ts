import { addAreaCatalogues } from '../../i18n/i18n';

/*
 * The 3D area's catalogues (lingui.config.ts): its texts come with its chunk, in the active
 * language, before its screens render.
 */
await addAreaCatalogues({
  en: () => import('./locales/en/messages.po'),
  de: () => import('./locales/de/messages.po'),
  pt: () => import('./locales/pt/messages.po'),
  ru: () => import('./locales/ru/messages.po'),
});
