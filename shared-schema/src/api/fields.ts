import { z } from 'zod';
import { deferred } from '../deferred';
import { LIMITS } from '../constants';
import { NEW_PASSWORD_LENGTH_MESSAGE } from './fields-texts';
export { NEW_PASSWORD_LENGTH_MESSAGE } from './fields-texts';

/**
 * Field schemas with the spec's own texts (spec 000 §5, spec 001 §5). The texts are English message
 * ids: the client translates them through its lingui catalogues.
 */

export const emailField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: 'Please enter your email address' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'Please enter your email address', abort: true })
    .min(LIMITS.emailMin, `The email address must be at least ${LIMITS.emailMin} characters`)
    .max(LIMITS.emailMax, `The email address may not be longer than ${LIMITS.emailMax} characters`)
    .pipe(z.email('Please enter a valid email address')),
);

/** A password being checked at sign-in: required, bounded, not judged. */
export const currentPasswordField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: 'Please enter your password' })
    .min(1, 'Please enter your password')
    .max(LIMITS.passwordMaxOnSignIn, 'Please enter your password'),
);

/** A password being chosen (register, reset, set). */
export const newPasswordField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: 'Please enter your password' })
    .min(1, { error: 'Please enter your password', abort: true })
    .min(LIMITS.newPasswordMin, NEW_PASSWORD_LENGTH_MESSAGE)
    .max(LIMITS.newPasswordMax, NEW_PASSWORD_LENGTH_MESSAGE),
);

function personName(which: 'firstname' | 'lastname') {
  const required = `Please enter your ${which}`;
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .min(LIMITS.nameMin, `The ${which} must be at least ${LIMITS.nameMin} characters`)
    .max(LIMITS.nameMax, `The ${which} may not be longer than ${LIMITS.nameMax} characters`);
}

export const firstnameField = /* @__PURE__ */ deferred(() => personName('firstname'));
export const lastnameField = /* @__PURE__ */ deferred(() => personName('lastname'));

/** Ids are opaque strings (UUIDv7 for new rows); bounded so that a huge id never reaches a query. */
export const idField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: 'Invalid id given.' })
    .min(1, 'Invalid id given.')
    .max(64, 'Invalid id given.')
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id given.'),
);

/** The name every model has (spec 001 §5: 'Name is required'). */
export const modelNameField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, { error: 'Name is required', abort: true })
    .max(250, 'The name may not be longer than 250 characters'),
);
