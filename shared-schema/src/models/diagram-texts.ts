/**
 * The texts of process diagrams' checks (issue 37 item 4; English message ids, translated by the
 * client's server-texts.ts). Apart from the schema, so that the client's start takes no zod.
 */
export const DIAGRAM_TEXTS = {
  noSvg: 'The picture is no SVG drawing.',
  tooLarge: 'The picture is too large: at most 36 KB once cleaned.',
  tooManyBindings: 'A diagram binds at most 40 elements.',
  elementTwice: 'An element is bound once only.',
  elementId: 'Choose an element of the picture.',
  color: 'A colour is a hex code like #e03131.',
  tooManyColors: 'At most 8 state colours.',
  streamOfOtherAsset: 'A diagram shows only data streams of its asset.',
} as const;
