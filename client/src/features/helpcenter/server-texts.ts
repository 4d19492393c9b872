import { msg } from '@lingui/core/macro';
import { ARTICLE_TEXTS, HELP_HOST_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The help centre's texts that come from the server or the shared schemas (issue 33): added to
 * the translation table when the area's chunk loads, not carried by every first visit.
 */
addServerTexts([
  [ARTICLE_TEXTS.titleRequired, msg`Title is required`],
  [ARTICLE_TEXTS.oneTranslation, msg`Please fill in at least one translation`],
  [ARTICLE_TEXTS.languageTwice, msg`This article has a text in this language already.`],
  [ARTICLE_TEXTS.tooManyBlocks, msg`An article may have at most 600 blocks per language.`],
  [ARTICLE_TEXTS.listTooDeep, msg`A list may nest at most 8 levels and hold at most 2,000 items.`],
  [ARTICLE_TEXTS.blockInvalid, msg`This block is not a valid Editor.js 2.27 block.`],
  [
    ARTICLE_TEXTS.documentInvalid,
    msg`The content must be an Editor.js document: { time, blocks, version }.`,
  ],
  ['Search needs at least 3 characters', msg`Search needs at least 3 characters`],
  ['This article number is taken.', msg`This article number is taken.`],
  // The help centre's own host (its server-rendered page reads these from this catalogue).
  [HELP_HOST_TEXTS.searchButton, msg`Search`],
  [HELP_HOST_TEXTS.notFound, msg`This page does not exist`],
  [
    HELP_HOST_TEXTS.notFoundHint,
    msg`The article may have been moved or not be published. Search the help center:`,
  ],
]);
