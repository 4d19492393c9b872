import { addAreaCatalogues } from '../../i18n/i18n';
// Its texts from the server and the shared schemas join the translation table with it.
import './server-texts';

/*
 * Security insights' catalogues (lingui.config.ts AREAS): its texts come with its pages' chunks,
 * in the active language, before they render, and no other page's first visit carries them.
 * The pages import this first. The area's route titles ('Security insights', 'Overview',
 * 'Threat overview') stay in the app's catalogue: the menu and the breadcrumb show them.
 */
await addAreaCatalogues({
  en: () => import('./locales/en/messages.po'),
  de: () => import('./locales/de/messages.po'),
  pt: () => import('./locales/pt/messages.po'),
  ru: () => import('./locales/ru/messages.po'),
});
