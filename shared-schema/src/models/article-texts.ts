/**
 * The help centre's texts of checks (English message ids; the client translates them). A module
 * of its own, as the other *-texts.ts: the client's table of server texts imports these without
 * loading the article's schemas on every first visit.
 */
export const ARTICLE_TEXTS = {
  titleRequired: 'Title is required',
  oneTranslation: 'Please fill in at least one translation',
  languageTwice: 'This article has a text in this language already.',
  tooManyBlocks: 'An article may have at most 600 blocks per language.',
  listTooDeep: 'A list may nest at most 8 levels and hold at most 2,000 items.',
  blockInvalid: 'This block is not a valid Editor.js 2.27 block.',
  documentInvalid: 'The content must be an Editor.js document: { time, blocks, version }.',
  unknownArticle: 'No help article has this number.',
} as const;
