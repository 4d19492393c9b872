import { msg } from '@lingui/core/macro';
import { THEME_FILE_TEXTS, THEME_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The themes' texts that come from the server or the shared schemas (issue 36): added to the
 * translation table when the area's chunk loads.
 */
addServerTexts([
  [THEME_TEXTS.title, msg`Enter theme title`],
  [
    THEME_TEXTS.contrast,
    msg`White text on this colour is hard to read (contrast below 4.5:1): choose a darker one.`,
  ],
  [THEME_TEXTS.imageOfTheme, msg`Choose an image uploaded for this theme.`],
  [THEME_TEXTS.inUse, msg`This theme is in use by an account: pick another theme there first.`],
  [THEME_TEXTS.notReachable, msg`Choose a theme of this account or of an account above it.`],
  [THEME_FILE_TEXTS.tooLarge, msg`The image may be at most 2 MB.`],
  [THEME_FILE_TEXTS.wrongType, msg`Please choose a PNG, JPEG, WebP or GIF image.`],
]);
