/** The texts of dashboard checks (English message ids; the client translates them). */
export const DASHBOARD_TEXTS = {
  rangeOrder: 'The start of the range must be before its end.',
  rangeLast: 'Between 1 and 1,000.',
  outsideGrid: 'The widget does not fit the grid.',
  widgetTwice: 'Two widgets have the same id.',
  tooManyWidgets: 'A dashboard may have at most 48 widgets.',
  tooManyStreams: 'A widget may show at most 12 data streams.',
  assetAndTemplate: 'A dashboard belongs to an asset or to a template, not both.',
  streamOfOtherAsset: 'An asset’s dashboard shows only data streams of that asset.',
} as const;
