import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from './fields';
export { LAST_ROLE, NOT_YOURSELF, RESET_LINK_SENT } from './members-texts';

/** A member of the active account as the users list shows it (spec 000 §2 /app/users/list). */
export const memberSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    roles: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string() })),
  }),
);
export type Member = z.infer<typeof memberSchema>;

export const memberParamsSchema = /* @__PURE__ */ deferred(() => z.object({ id: idField }));
export const memberRoleParamsSchema = /* @__PURE__ */ deferred(() =>
  z.object({ id: idField, roleId: idField }),
);
