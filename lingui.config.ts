import { defineConfig } from '@lingui/cli';

/**
 * The client's catalogues (spec 000 §1, DESIGN.md §6): English is the source; German, Portuguese,
 * Russian and Plain are kept up to date by `npm run i18n` (lingui extract). Plain is for
 * translators: the app shows each message's id instead of a text (client/src/i18n/i18n.ts).
 */
/** Areas with a catalogue of their own (issue 32: the 3D area's texts left the first visit; issue 33: the help centre's and, to make room on the first visit, the developer area's). */
const AREAS = [
  'threed',
  'helpcenter',
  'developer',
  'feedback',
  'service',
  'api-reference',
  'versions',
  'themes',
  'translations',
  'integration',
  'inspection',
  'tasks',
  'diagrams',
  'security-insights',
  'two-factor',
];
/**
 * Folders whose texts are another area's catalogue (issue 35: release management's three), or
 * several areas' (`states`: the service requests' and updates' states, which the service
 * booklet shows too: in each of their catalogues, not on every first visit).
 */
const SHARING: Readonly<Record<string, readonly string[]>> = {
  versions: ['firmware', 'boards', 'states'],
  themes: ['jobs'],
  service: ['states'],
  tasks: ['states'],
};
const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/node_modules/**'];

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de', 'pt', 'ru', 'plain'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/client/src/locales/{locale}/messages',
      include: ['<rootDir>/client/src'],
      // Tests' own catalogues (i18n.test.ts) are not the product's texts; an area with its own
      // catalogue (below) keeps its texts there.
      exclude: [
        ...TESTS,
        ...AREAS.flatMap((area) => [area, ...(SHARING[area] ?? [])]).map(
          (folder) => `<rootDir>/client/src/features/${folder}/**`,
        ),
      ],
    },
    // Areas whose texts only their own screens show: a catalogue beside their code, loaded with
    // their chunk (client/src/i18n/i18n.ts addAreaCatalogues), so no first visit carries it.
    ...AREAS.map((area) => ({
      path: `<rootDir>/client/src/features/${area}/locales/{locale}/messages`,
      include: [area, ...(SHARING[area] ?? [])].map(
        (folder) => `<rootDir>/client/src/features/${folder}`,
      ),
      exclude: TESTS,
    })),
  ],
  format: 'po',
});
