import { addAreaCatalogues } from '../../i18n/i18n';
// Its texts from the server and the shared schemas join the translation table with it.
import './server-texts';

/*
 * The integrations' catalogues (lingui.config.ts AREAS, issue 37 item 6): the integration page's
 * and the webhook editor's texts come with their chunks, in the active language, before they
 * render, and no other page's first visit carries them. Every module of the folder that shows
 * texts imports this first (the routes module shows only the app catalogue's route title).
 */
await addAreaCatalogues({
  en: () => import('./locales/en/messages.po'),
  de: () => import('./locales/de/messages.po'),
  pt: () => import('./locales/pt/messages.po'),
  ru: () => import('./locales/ru/messages.po'),
});
