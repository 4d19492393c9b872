import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from './fields';
import { hostField } from '../models/managed';
export {
  ACCOUNT_MOVE_CYCLE,
  ACCOUNT_DEACTIVATED_FROM_ABOVE,
  ACCOUNT_REACTIVATED_FROM_ABOVE,
} from './account-admin-texts';

/** Changing accounts (spec 000 §3, spec 001 §6): subaccounts, names, moves, (de)activation. */
export const ACCOUNT_EDIT_PERMISSION = 'account::edit';

/** A host is tied to one account; it is set from an account above (or by internal users). */
export const HOST_TAKEN = 'This host is tied to another account already.';
export const HOST_FROM_ABOVE = 'The host of an account is set from an account above it.';

export const ACCOUNT_OUT_OF_REACH = 'This account is outside the accounts you manage.';

/** POST account/subaccounts: a new account under the given one (default: the active one). */
export const subaccountRequestSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    parent_id: idField.optional(),
  }),
);
export type SubaccountRequest = z.infer<typeof subaccountRequestSchema>;

/** PUT accounts/{id}: any of name, active, parent (a move), its theme and its host. */
export const accountChangeSchema = /* @__PURE__ */ deferred(() =>
  z
    .object({
      name: modelNameField.optional(),
      active: z.boolean().optional(),
      parent_id: idField.optional(),
      theme_id: idField.nullable().optional(),
      host: hostField.nullable().optional(),
    })
    .refine((c) => Object.keys(c).length > 0, 'The given data was invalid.'),
);
export type AccountChange = z.infer<typeof accountChangeSchema>;

export const accountParamsSchema = /* @__PURE__ */ deferred(() => z.object({ id: idField }));
