import { z } from 'zod';
import { deferred } from '../deferred';
import { emailField, firstnameField, lastnameField, newPasswordField } from './fields';

/** POST /api/v1/register; afterwards the user is signed in. */
export const registerRequestSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    firstname: firstnameField,
    lastname: lastnameField,
    email: emailField,
    password: newPasswordField,
  }),
);
export type RegisterRequest = z.infer<typeof registerRequestSchema>;
