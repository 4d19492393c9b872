import { msg } from '@lingui/core/macro';
import { FORM_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The forms' texts that come from the server or the shared schemas (issue 37, spec 001 §5):
 * added to the translation table when the area's chunk loads. `{number}` is filled in where shown.
 */
const number = '{number}';
addServerTexts([
  [FORM_TEXTS.required, msg`Field is required`],
  [FORM_TEXTS.number, msg`Must be a number`],
  [FORM_TEXTS.numberOrEmpty, msg`Must be a numerical value or empty`],
  [FORM_TEXTS.atLeast, msg`Must be at least ${number}`],
  [FORM_TEXTS.atMost, msg`Must be at most ${number}`],
  [FORM_TEXTS.time, msg`The time needs to be valid`],
  [FORM_TEXTS.formula, msg`Formula not valid`],
  [FORM_TEXTS.multiple, msg`Multiple selections invalid: item deselected`],
  [FORM_TEXTS.label, msg`Please fill in at least one translation`],
  [FORM_TEXTS.tooLong, msg`The text may be at most ${number} characters long.`],
  [FORM_TEXTS.option, msg`Choose one of the options.`],
  [FORM_TEXTS.options, msg`A selection needs at least one option.`],
  [FORM_TEXTS.fieldIds, msg`Each field needs an id of its own.`],
  [FORM_TEXTS.limits, msg`The lowest value must not be above the highest.`],
  [FORM_TEXTS.noFields, msg`A form needs at least one field.`],
  [FORM_TEXTS.version, msg`Fill in the form’s latest version.`],
  [FORM_TEXTS.file, msg`Please upload a file`],
  [FORM_TEXTS.entryFixed, msg`A filled-in form cannot be changed.`],
  [FORM_TEXTS.entryOwn, msg`Only who filled it in may add its photos and signature.`],
  [FORM_TEXTS.taskTargets, msg`Choose at least one asset or template.`],
  [FORM_TEXTS.taskCounter, msg`Please select a stream`],
  [FORM_TEXTS.taskStep, msg`Amount needs to be bigger than 0`],
]);
