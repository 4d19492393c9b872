import { msg } from '@lingui/core/macro';
import { TRANSLATION_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/* The translations' texts that come from the server or the shared schemas (issue 36). */
addServerTexts([
  [TRANSLATION_TEXTS.atLeastOne, msg`Please fill in at least one translation`],
  [TRANSLATION_TEXTS.key, msg`Choose a text of the product.`],
  [TRANSLATION_TEXTS.keyTaken, msg`This text has words of this account already: change those.`],
]);
