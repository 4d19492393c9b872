import { addAreaCatalogues } from '../../i18n/i18n';
// Its texts from the server and the shared schemas join the translation table with it.
import './server-texts';

/*
 * The event inspection's catalogues (lingui.config.ts AREAS): its texts come with its chunk, in
 * the active language, before its screen renders, and no other page's first visit carries them.
 * The page module imports this first. The inspect button, which the alarm screens import, shows
 * only a text of the app's catalogue ('Event inspection', the route's title).
 */
await addAreaCatalogues({
  en: () => import('./locales/en/messages.po'),
  de: () => import('./locales/de/messages.po'),
  pt: () => import('./locales/pt/messages.po'),
  ru: () => import('./locales/ru/messages.po'),
});
