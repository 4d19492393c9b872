import { addAreaCatalogues } from '../../i18n/i18n';
// Its texts from the server and the shared schemas join the translation table with it.
import './server-texts';

/*
 * The forms' and tasks' catalogue (lingui.config.ts), loaded with their chunk in the active
 * language before they render. Every page module of the folder imports this first.
 */
await addAreaCatalogues({
  en: () => import('./locales/en/messages.po'),
  de: () => import('./locales/de/messages.po'),
  pt: () => import('./locales/pt/messages.po'),
  ru: () => import('./locales/ru/messages.po'),
});
