import { msg } from '@lingui/core/macro';
import { INSPECTION_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The event inspection's texts that come from the server or the shared schema (issue 37 item 5):
 * added to the translation table when the area's chunk loads.
 */
addServerTexts([
  [INSPECTION_TEXTS.alarmNotOfAsset, msg`The alarm is not one of this asset’s.`],
  [INSPECTION_TEXTS.noteRequired, msg`Please write a note.`],
  [INSPECTION_TEXTS.noteTooLong, msg`A note may not be longer than 2,000 characters.`],
  [INSPECTION_TEXTS.tooManyNotes, msg`This inspection has as many notes as it can hold (500).`],
  [INSPECTION_TEXTS.window, msg`An inspection looks at most 12 hours before and after its moment.`],
]);
