import { z } from 'zod';
import { deferred } from '../../deferred';
import { envelopeSchema } from '../../api/envelope';
import { idField } from '../../api/fields';
import { tokenResponseSchema } from '../../api/token-request';
import { currentUserSchema } from '../../api/user';

/** `{ data }`: the envelope most answers come in. */
export const data = envelopeSchema;

export const idParams = /* @__PURE__ */ deferred(() => z.object({ id: idField }));

/** Registering and answering an invitation sign the person in: a token and the user. */
export const signedInSchema = /* @__PURE__ */ deferred(() =>
  tokenResponseSchema.extend({ user: currentUserSchema }),
);
