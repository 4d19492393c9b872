import { msg } from '@lingui/core/macro';
import { DIAGRAM_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The diagram checks' texts (shared-schema models/diagram-texts.ts), joining the translation
 * table when the diagrams' chunks load (their page, the asset page's section): out of the start
 * chunk, which every first visit carries.
 */
addServerTexts([
  [DIAGRAM_TEXTS.noSvg, msg`The picture is no SVG drawing.`],
  [DIAGRAM_TEXTS.tooLarge, msg`The picture is too large: at most 36 KB once cleaned.`],
  [DIAGRAM_TEXTS.tooManyBindings, msg`A diagram binds at most 40 elements.`],
  [DIAGRAM_TEXTS.elementTwice, msg`An element is bound once only.`],
  [DIAGRAM_TEXTS.elementId, msg`Choose an element of the picture.`],
  [DIAGRAM_TEXTS.color, msg`A colour is a hex code like #e03131.`],
  [DIAGRAM_TEXTS.tooManyColors, msg`At most 8 state colours.`],
  [DIAGRAM_TEXTS.streamOfOtherAsset, msg`A diagram shows only data streams of its asset.`],
]);
