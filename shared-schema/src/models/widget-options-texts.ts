/** The texts of the option checks (English message ids; the client translates them). */
export const WIDGET_OPTION_TEXTS = {
  minBelowMax: 'The minimum must be below the maximum.',
  decimals: 'Between 0 and 6 decimals.',
  textTooLong: 'At most 2,000 characters.',
  oneStream: 'This widget shows one data stream.',
  noStreams: 'This widget shows no data streams.',
} as const;
