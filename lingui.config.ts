import { defineConfig } from '@lingui/cli';

/**
 * The client's catalogues (spec 000 §1, DESIGN.md §6): English is the source; German, Portuguese,
 * Russian and Plain are kept up to date by `npm run i18n` (lingui extract). Plain is for
 * translators: the app shows each message's id instead of a text (client/src/i18n/i18n.ts).
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de', 'pt', 'ru', 'plain'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/client/src/locales/{locale}/messages',
      include: ['<rootDir>/client/src'],
      // Tests' own catalogues (i18n.test.ts) are not the product's texts.
      exclude: ['**/*.test.ts', '**/*.test.tsx', '**/node_modules/**'],
    },
  ],
  format: 'po',
});
