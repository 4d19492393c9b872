import { z } from 'zod';
import { idField } from './fields';

/**
 * Images of an account's design (issue 30 item 9, spec 001 §3 Theme: login image, mobile logo,
 * desktop logo), uploaded as files: the server checks what the bytes are, keeps them
 * content-addressed per account, and serves them to anyone (the sign-in screen shows the login
 * image before anyone signs in) while the account's design names them.
 */
export const DESIGN_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
/** The longest side an image may have, in pixels. */
export const DESIGN_IMAGE_MAX_PX = 8000;

/** The media types an image of the design may be, with the ending its address carries. */
export const DESIGN_IMAGE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
} as const;
export type DesignImageType = keyof typeof DESIGN_IMAGE_TYPES;

/** The texts of the checks (English message ids; the client translates them). */
export const DESIGN_IMAGE_TEXTS = {
  wrongType: 'Please choose a PNG, JPEG, WebP or GIF image.',
  tooLarge: 'The image may be at most 2 MB.',
  empty: 'The file is empty.',
  notImage: 'This file is not an image that can be shown.',
  tooWide: 'The image may be at most 8000 pixels wide and high.',
} as const;

export function isDesignImageType(type: string): type is DesignImageType {
  return Object.hasOwn(DESIGN_IMAGE_TYPES, type);
}

/** What is wrong with a file chosen as an image of the design, before it is sent (null: fine). */
export function designImageProblem(file: { readonly type: string; readonly size: number }) {
  if (!isDesignImageType(file.type.toLowerCase())) return DESIGN_IMAGE_TEXTS.wrongType;
  if (file.size < 1) return DESIGN_IMAGE_TEXTS.empty;
  if (file.size > DESIGN_IMAGE_MAX_BYTES) return DESIGN_IMAGE_TEXTS.tooLarge;
  return null;
}

/** An image's name in its address: its SHA-256 and its type's ending. */
export const designImageNameSchema = z
  .string()
  .regex(/^[0-9a-f]{64}\.(png|jpg|webp|gif)$/, 'Invalid id given.');

export const designImageParamsSchema = z.object({ account: idField, name: designImageNameSchema });

/** The answer to an upload: where the image is served once the design names it. */
export const designImageAnswerSchema = z.object({
  url: z.string(),
  type: z.string(),
  size: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});
export type DesignImageAnswer = z.infer<typeof designImageAnswerSchema>;
