/*
 * The event inspection's check texts (issue 37 item 5), English message ids the client
 * translates (client/src/features/inspection/server-texts.ts). A module without zod, so a screen
 * that shows them pulls no schema into its chunk (shared-schema CONTEXT "Gotchas").
 */
export const INSPECTION_TEXTS = {
  /** An inspection's alarm that is missing, or of another asset (told alike: nothing leaks). */
  alarmNotOfAsset: 'The alarm is not one of this asset’s.',
  noteRequired: 'Please write a note.',
  noteTooLong: 'A note may not be longer than 2,000 characters.',
  tooManyNotes: 'This inspection has as many notes as it can hold (500).',
  window: 'An inspection looks at most 12 hours before and after its moment.',
} as const;
