import { z } from 'zod';
import { deferred } from '../deferred';
import { modelNameField } from '../api/fields';
import { accountDesignSchema, NO_DESIGN } from '../api/user';
import type { ModelDefinition } from './registry-types';
import { viewEditPermissions } from './model-permissions';
import { TAG_SLUG_MESSAGE } from './managed-texts';
import { FIELD_TYPES } from './field-types';
export {
  ACCOUNTS_ARE_NOT_DELETED,
  MEMBERS_JOIN_BY_INVITATION,
  TAG_HOLDER_NOT_MEMBER,
  TAG_SLUG_MESSAGE,
  TAG_TAKEN,
  TAGS_ARE_INTERNAL,
} from './managed-texts';

/**
 * The models the server keeps in their own tables (roles, memberships, accounts), which the
 * session and the access decision read. They sync like every other model: the generic write
 * routes take their changes (so the worker's outbox queues them offline), and each change is
 * logged as the model's whole state (`updated`, or `item_deleted`), so every open screen follows.
 */

// The model types whose fields a role may narrow: permission-table.ts (no schemas there).
export { FIELD_TYPES, type FieldType } from './field-types';

const idRef = /* @__PURE__ */ deferred(() => z.string().trim().min(1).max(64));

/**
 * The lists a write was made against (what its writer saw), written, never stored: with it the
 * server applies only what the writer added and took away to the stored list, so a write queued
 * offline never undoes what another admin changed meanwhile. Without it the list is replaced.
 */
function baseOf<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape).partial().optional();
}

const roleAssetsField = /* @__PURE__ */ deferred(() =>
  z.array(z.object({ asset_id: idRef, edit: z.boolean() })).max(20_000),
);
const permissionsField = /* @__PURE__ */ deferred(() =>
  z.array(z.string().min(1).max(100)).max(200),
);

/** A role of the account: its permissions, its assets (the pencil: edit) and its field lists. */
export const roleAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    /** Server-kept: made from the name when the role is made. */
    slug: z.string().max(100).default(''),
    /** admin and norole: not to be renamed, deleted or changed. Server-kept. */
    fixed: z.boolean().default(false),
    /** How many members hold the role. Server-kept. */
    members: z.number().int().min(0).default(0),
    permissions: permissionsField.default([]),
    /** The key button: every asset of the account. */
    all_assets: z.boolean().default(false),
    assets: roleAssetsField.default([]),
    /** The fields shown per type; a type not listed shows every field. */
    fields: z
      .array(
        z.object({
          type: z.enum(FIELD_TYPES),
          fields: z.array(z.string().min(1).max(100)).max(200),
        }),
      )
      .max(FIELD_TYPES.length)
      .default([]),
    base: baseOf({ permissions: permissionsField, assets: roleAssetsField }),
  }),
);
export type RoleAttributes = z.infer<typeof roleAttributesSchema>;

export const roleModel = {
  type: 'role',
  collection: 'roles',
  parentType: 'account',
  attributes: roleAttributesSchema,
  permissions: viewEditPermissions('account::view', 'role::edit'),
  sortField: 'name',
  serverFields: ['slug', 'fixed', 'members'],
  managed: true,
} as const satisfies ModelDefinition<'role', typeof roleAttributesSchema>;

/** A member of the account: who it is (its own profile) and the roles it holds here. */
export const memberAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    firstname: z.string().max(100).default(''),
    lastname: z.string().max(100).default(''),
    email: z.string().max(255).default(''),
    language: z.string().max(10).default(''),
    role_ids: z.array(idRef).max(100).default([]),
    base: baseOf({ role_ids: z.array(idRef).max(100) }),
  }),
);
export type MemberAttributes = z.infer<typeof memberAttributesSchema>;

export const memberModel = {
  type: 'user',
  collection: 'members',
  parentType: 'account',
  attributes: memberAttributesSchema,
  permissions: viewEditPermissions('user::view', 'user::edit'),
  sortField: 'lastname',
  // A member's name and address are its own (its profile); an admin changes its roles.
  serverFields: ['firstname', 'lastname', 'email', 'language'],
  managed: true,
} as const satisfies ModelDefinition<'user', typeof memberAttributesSchema>;

/** The message of a host name that is not one. */
export const HOST_INVALID = 'Please provide a valid host name, like portal.example.com.';

/**
 * A host name tied to an account (issue 36): the sign-in page and /staticconf at that host show
 * the account's theme. Lower-case labels of letters, digits and hyphens, without a port.
 */
export const hostField = /* @__PURE__ */ deferred(() =>
  z
    .string()
    .trim()
    .toLowerCase()
    .max(253, HOST_INVALID)
    .regex(
      /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
      HOST_INVALID,
    ),
);

/** The active account and, for account::view, the accounts below it (spec 000 §3). */
export const accountAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    /** The account above, when the reader may know it; null at the top of what it sees. */
    parent_id: idRef.nullable().default(null),
    active: z.boolean().default(true),
    /** The theme the account picked (its own or an account's above); null: the one above's. */
    theme_id: idRef.nullable().default(null),
    /** The host whose sign-in page shows the account's theme; set from an account above. */
    host: hostField.nullable().default(null),
    /** The design shown: the theme picked here or above, resolved by the server (read-only). */
    theme: accountDesignSchema.default(NO_DESIGN),
    /**
     * When the account's words last changed, here or above (translations, issue 36): the server's;
     * a browser reads them again (GET translations/inherited) when it moves.
     */
    texts_version: z.number().int().default(0),
  }),
);
export type AccountAttributes = z.infer<typeof accountAttributesSchema>;

export const accountModel = {
  type: 'account',
  collection: 'accounts',
  parentType: 'account',
  parentField: 'parent_id',
  attributes: accountAttributesSchema,
  permissions: viewEditPermissions('account::view', 'account::edit'),
  sortField: 'name',
  serverFields: ['theme', 'texts_version'],
  managed: true,
} as const satisfies ModelDefinition<'account', typeof accountAttributesSchema>;

const tagSlug = /* @__PURE__ */ deferred(() =>
  z
    .string()
    .trim()
    .min(1, 'Field is required')
    .max(60)
    .regex(/^[a-z0-9][a-z0-9-]*$/, TAG_SLUG_MESSAGE),
);

/**
 * A tag of the account (spec 000 §6 hasTag): the features behind it (feature flags) open for the
 * users who hold it. Its parents are the tags it implies. Given and taken by internal users only.
 */
export const tagAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    slug: tagSlug,
    parents: z.array(tagSlug).max(20).default([]),
    user_ids: z.array(idRef).max(10_000).default([]),
    base: baseOf({ user_ids: z.array(idRef).max(10_000) }),
  }),
);
export type TagAttributes = z.infer<typeof tagAttributesSchema>;

export const tagModel = {
  type: 'tag',
  collection: 'tags',
  parentType: 'account',
  attributes: tagAttributesSchema,
  permissions: viewEditPermissions('user::view', 'tag::edit'),
  sortField: 'slug',
  managed: true,
} as const satisfies ModelDefinition<'tag', typeof tagAttributesSchema>;
