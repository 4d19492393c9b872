import { z } from 'zod';
import { deferred } from '../deferred';
import { LANGUAGES } from '../constants';

export const hexColorField = /* @__PURE__ */ deferred(() =>
  z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Valid hex code for colours'),
);

export const DESIGN_IMAGE_INVALID =
  'An image is a path on this server (starting with one /) or an https:// address, without spaces.';

/**
 * An image of an account's design (logos, login image): shown by <img> and CSS url(), so only a
 * path on this server or an https address; no other scheme (javascript:, data:, http:).
 */
export const designImageField = /* @__PURE__ */ deferred(() =>
  z
    .string()
    .max(2000)
    .regex(/^(\/(?!\/)|https:\/\/)\S*$/, DESIGN_IMAGE_INVALID),
);

/**
 * An account's design as shown (spec 000 §3 Theme): the theme it picked, or the one of the nearest
 * account above it with a pick (issue 36), resolved by the server: colours, title, the addresses
 * of its logos (light and dark) and of its login image. Not stored with the account: the theme
 * (models/theme.ts) is the one place these fields live.
 */
export const accountDesignSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The theme shown; null: none picked here or above (the product's own look). */
    themeId: z.string().nullable(),
    color1: hexColorField.nullable(),
    color2: hexColorField.nullable(),
    title: z.string().max(250).nullable(),
    logoDesktop: designImageField.nullable(),
    logoMobile: designImageField.nullable(),
    logoDesktopDark: designImageField.nullable(),
    logoMobileDark: designImageField.nullable(),
    loginImage: designImageField.nullable(),
  }),
);

/** The product's own look: no theme anywhere above. */
export const NO_DESIGN: AccountDesign = {
  themeId: null,
  color1: null,
  color2: null,
  title: null,
  logoDesktop: null,
  logoMobile: null,
  logoDesktopDark: null,
  logoMobileDark: null,
  loginImage: null,
};
export type AccountDesign = z.infer<typeof accountDesignSchema>;

export const accountViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    parent_id: z.string().nullable(),
    active: z.boolean(),
    /** The theme the account picked itself (null: it shows the one above's). */
    theme_id: z.string().nullable(),
    /** The host whose sign-in page shows the account's theme. */
    host: z.string().nullable(),
    theme: accountDesignSchema,
    /** When the account's words last changed, here or above (translations). */
    texts_version: z.number().int(),
  }),
);
export type AccountView = z.infer<typeof accountViewSchema>;

export const roleViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    account_id: z.string(),
  }),
);
export type RoleView = z.infer<typeof roleViewSchema>;

export const permissionRecordSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    role_id: z.string(),
    user_id: z.string().nullable(),
    guard_name: z.string(),
    account_id: z.string(),
  }),
);
export type PermissionRecord = z.infer<typeof permissionRecordSchema>;

export const tagViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    slug: z.string(),
    account_id: z.string().nullable(),
    parents: z.array(z.string()),
  }),
);
export type TagView = z.infer<typeof tagViewSchema>;

export const featureFlagViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    key: z.string(),
    visibility_scope: z.string(),
    tag: z.string(),
  }),
);
export type FeatureFlagView = z.infer<typeof featureFlagViewSchema>;

/** Another user as the caller may see it (GET /api/v1/users/{id}). */
export const userPublicSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    language: z.enum(LANGUAGES),
    roles: z.array(roleViewSchema),
  }),
);
export type UserPublic = z.infer<typeof userPublicSchema>;

/**
 * Which assets the user may change in its active account (DESIGN.md §10): every one it sees
 * (`allAssets`), else those in `edit`, the assets its roles were given with the pencil; and the
 * fields its roles hide. The server's access decision of the session; the browser hides the edit
 * controls whose save it would refuse.
 */
export const assetAccessViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    allAssets: z.boolean(),
    edit: z.array(z.string()),
    /** Per type, the attributes hidden from the user's roles (a type absent: none). */
    hidden: z.record(z.string(), z.array(z.string())),
  }),
);
export type AssetAccessView = z.infer<typeof assetAccessViewSchema>;

/**
 * The signed-in user (GET /api/v1/user): everything the client's permission manager needs
 * (active roles, their permission records, tags, feature flags) comes in this one answer.
 */
export const currentUserSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    language: z.enum(LANGUAGES),
    account: z.string().nullable(),
    activeAccount: accountViewSchema.nullable(),
    roles: z.array(roleViewSchema),
    activeRoles: z.array(roleViewSchema),
    permissions: z.array(permissionRecordSchema),
    tags: z.array(tagViewSchema),
    featureFlags: z.array(featureFlagViewSchema),
    /** Absent in a user stored before it came (the type permissions alone then decide). */
    access: assetAccessViewSchema.optional(),
  }),
);
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** POST /api/v1/user/{id}/setActiveAccount/{accountid} */
export const setActiveAccountResponseSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    user: currentUserSchema,
    account: accountViewSchema,
  }),
);

/** How people read a user's name: first and last name, or the e-mail address without them. */
export function personName(user: {
  readonly firstname: string;
  readonly lastname: string;
  readonly email: string;
}): string {
  return `${user.firstname} ${user.lastname}`.trim() || user.email;
}
