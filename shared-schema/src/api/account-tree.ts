import { z } from 'zod';
import { deferred } from '../deferred';

/** What the account switcher shows next to an inactive account (spec 000 §3). */
export const DEACTIVATED_ACCOUNT_LABEL = 'Deactivated';

/**
 * One node of the account tree (spec 000 §3 "Account tree node: text, id, value with root, active,
 * userCount, assetCount, hasChildren"), as GET /api/v1/user/accounts answers it.
 */
export const accountTreeNodeSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The account's id. */
    id: z.string(),
    /** The account's name (the client adds DEACTIVATED_ACCOUNT_LABEL when `value.active` is false). */
    text: z.string(),
    /**
     * The parent account, only when that parent is in the same answer: a node's parent is never
     * named when the user may not see it (a customer never learns the machine builder's id).
     */
    parent_id: z.string().nullable(),
    value: z.object({
      /** A top of the tree as this user sees it (its parent is not in the answer). */
      root: z.boolean(),
      /** false: a deactivated account (users still sign in and switch to it). */
      active: z.boolean(),
      /** How many users are members of the account (through any role). */
      userCount: z.number().int().min(0),
      /** How many models of type asset the account has. */
      assetCount: z.number().int().min(0),
      /** Whether the answer has nodes under this one. */
      hasChildren: z.boolean(),
    }),
    /** The user's active account (at most one node says true). */
    current: z.boolean(),
    /**
     * Whether POST user/{id}/setActiveAccount/{accountid} accepts this account: the user holds a
     * role other than norole in it. Descendants seen through account::view are not switchable.
     */
    switchable: z.boolean(),
  }),
);
export type AccountTreeNode = z.infer<typeof accountTreeNodeSchema>;

/**
 * GET /api/v1/user/accounts (`data`): the accounts the user works in and, where it has
 * account::view, the accounts below them; a flat list in tree order (depth first, every parent
 * before its children, siblings by name).
 */
export const accountTreeSchema = /* @__PURE__ */ deferred(() => z.array(accountTreeNodeSchema));
export type AccountTree = z.infer<typeof accountTreeSchema>;
