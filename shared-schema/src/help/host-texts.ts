import type { Language } from '../constants';

/** Each content language by its own name (an endonym is never translated). */
export const LANGUAGE_ENDONYMS: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  pt: 'Português',
  ru: 'Русский',
  plain: 'Plain',
};

/**
 * The words of the help centre's own host (HELPCENTER_HOST, issue 33 item 6): a page the server
 * renders without the app. They are the help centre's catalogue entries (the client's
 * helpcenter/server-texts.ts lists those the app does not use itself), so `lingui extract` keeps
 * their German, Portuguese, Russian and Plain texts, which the server reads from the catalogue.
 * `{0}` and `{1}` are filled in as lingui fills its placeholders.
 */
export const HELP_HOST_TEXTS = {
  title: 'Help center',
  search: 'Search articles',
  searchButton: 'Search',
  tooShort: 'Search needs at least 3 characters',
  language: 'Language of the articles',
  noArticles: 'No articles yet',
  noHits: 'No articles found',
  allArticles: 'All articles',
  /** {0}: the reader's language, {1}: the one shown (their own names). */
  fallback: 'This article is not available in {0}: it is shown in {1}.',
  unknownBlock: 'This part of the article cannot be shown here.',
  notFound: 'This page does not exist',
  notFoundHint: 'The article may have been moved or not be published. Search the help center:',
  print: 'Print',
} as const;
