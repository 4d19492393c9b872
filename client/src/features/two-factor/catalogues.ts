import { addAreaCatalogues } from '../../i18n/i18n';
// Its texts from the server and the shared schemas join the translation table with it.
import './server-texts';

/*
 * Two-factor sign-in's catalogue (lingui.config.ts): the second step of the sign-in, the user's
 * and the account's security pages, loaded with their chunks in the active language before they
 * render, so no other first visit carries their texts. Every page module of the folder imports
 * this first.
 */
await addAreaCatalogues({
  en: () => import('./locales/en/messages.po'),
  de: () => import('./locales/de/messages.po'),
  pt: () => import('./locales/pt/messages.po'),
  ru: () => import('./locales/ru/messages.po'),
});
