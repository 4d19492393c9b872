import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from '../api/fields';
import { hexColorField, type AccountDesign } from '../api/user';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { THEME_TEXTS } from './theme-texts';
export { THEME_TEXTS } from './theme-texts';

/*
 * Themes (DESIGN.md §16, issue 36, spec 001 §3 Theme: Color1, Color2, login image, mobile logo,
 * desktop logo, title). A theme is the one place an account's design lives: an account picks one
 * of its own or of an account above it (`theme_id` of the account), and a subaccount without a
 * pick shows the theme of the nearest account above that has one. Its images are `file` models
 * of the theme (kind 'image'), served to anyone while the theme names them: the sign-in page
 * shows them before anyone signs in.
 */

/** The least contrast of text on a colour (WCAG 2.2 AA for normal text). */
export const MIN_TEXT_CONTRAST = 4.5;

/** The colour text is drawn in on a theme's colours (buttons, the sign-in page's band). */
export const THEME_TEXT_COLOR = '#ffffff';

/** A colour's relative luminance (WCAG 2.2), from #rrggbb. */
export function relativeLuminance(hex: string): number {
  const channel = (at: number) => {
    const c = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two #rrggbb colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (hi + 0.05) / (lo + 0.05);
}

/** A theme's colour: #rrggbb that white text can be read on. */
const themeColorField = /* @__PURE__ */ deferred(() =>
  hexColorField.refine(
    // A text that is no hex code has its own message already.
    (hex) =>
      !/^#[0-9a-fA-F]{6}$/.test(hex) || contrastRatio(hex, THEME_TEXT_COLOR) >= MIN_TEXT_CONTRAST,
    THEME_TEXTS.contrast,
  ),
);

/** The theme's images: each a file of the theme (kind 'image'), or none. */
export const THEME_IMAGE_FIELDS = [
  'login_image',
  'logo_mobile',
  'logo_desktop',
  'logo_mobile_dark',
  'logo_desktop_dark',
] as const;
export type ThemeImageField = (typeof THEME_IMAGE_FIELDS)[number];

export const themeAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    title: z
      .string({ error: THEME_TEXTS.title })
      .trim()
      .min(1, { error: THEME_TEXTS.title, abort: true })
      .max(250, THEME_TEXTS.title),
    color1: themeColorField.nullable().default(null),
    color2: themeColorField.nullable().default(null),
    login_image: idField.nullable().default(null),
    logo_mobile: idField.nullable().default(null),
    logo_desktop: idField.nullable().default(null),
    /** The logos on a dark background (the dark colour scheme); absent: the light ones. */
    logo_mobile_dark: idField.nullable().default(null),
    logo_desktop_dark: idField.nullable().default(null),
  }),
);
export type ThemeAttributes = z.infer<typeof themeAttributesSchema>;

export const themeModel = {
  type: 'theme',
  collection: 'themes',
  parentType: 'account',
  attributes: themeAttributesSchema,
  refs: {
    login_image: 'file',
    logo_mobile: 'file',
    logo_desktop: 'file',
    logo_mobile_dark: 'file',
    logo_desktop_dark: 'file',
  },
  permissions: ownPermissions('theme'),
  sortField: 'title',
} as const satisfies ModelDefinition<'theme', typeof themeAttributesSchema>;

/** Where a theme's image is served to anyone (the sign-in page shows it before sign-in). */
export function themeImagePath(fileId: string): string {
  return `/api/v1/theme-images/${encodeURIComponent(fileId)}`;
}

/** A theme's attributes as the design shown (its images as their public addresses). */
export function designOfTheme(id: string, theme: ThemeAttributes): AccountDesign {
  const image = (fileId: string | null) => (fileId === null ? null : themeImagePath(fileId));
  return {
    themeId: id,
    color1: theme.color1,
    color2: theme.color2,
    title: theme.title,
    logoDesktop: image(theme.logo_desktop),
    logoMobile: image(theme.logo_mobile),
    logoDesktopDark: image(theme.logo_desktop_dark),
    logoMobileDark: image(theme.logo_mobile_dark),
    loginImage: image(theme.login_image),
  };
}
