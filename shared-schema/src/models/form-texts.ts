/*
 * The forms' check texts (English message ids; the client translates them). Spec 001 §5 gives
 * most of them word for word; `{number}` is filled in where shown.
 */
export const FORM_TEXTS = {
  required: 'Field is required',
  number: 'Must be a number',
  numberOrEmpty: 'Must be a numerical value or empty',
  atLeast: 'Must be at least {number}',
  atMost: 'Must be at most {number}',
  time: 'The time needs to be valid',
  formula: 'Formula not valid',
  multiple: 'Multiple selections invalid: item deselected',
  label: 'Please fill in at least one translation',
  tooLong: 'The text may be at most {number} characters long.',
  option: 'Choose one of the options.',
  options: 'A selection needs at least one option.',
  fieldIds: 'Each field needs an id of its own.',
  limits: 'The lowest value must not be above the highest.',
  noFields: 'A form needs at least one field.',
  version: 'Fill in the form’s latest version.',
  file: 'Please upload a file',
  entryFixed: 'A filled-in form cannot be changed.',
  entryOwn: 'Only who filled it in may add its photos and signature.',
  taskTargets: 'Choose at least one asset or template.',
  taskCounter: 'Please select a stream',
  taskStep: 'Amount needs to be bigger than 0',
} as const;
