/*
 * The themes' texts apart from their schemas (issue 36): the app's first visit names some of
 * them (its translation table) without loading the theme model.
 */

/** The theme's check texts (English message ids; the client translates them). */
export const THEME_TEXTS = {
  /** Spec 001 §5. */
  title: 'Enter theme title',
  hex: 'Valid hex code for colours',
  /** WCAG 2.2 AA, 1.4.3: white text on the colour (buttons, the sign-in band). */
  contrast:
    'White text on this colour is hard to read (contrast below 4.5:1): choose a darker one.',
  imageOfTheme: 'Choose an image uploaded for this theme.',
  inUse: 'This theme is in use by an account: pick another theme there first.',
  notReachable: 'Choose a theme of this account or of an account above it.',
} as const;
