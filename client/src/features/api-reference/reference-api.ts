import { z } from 'zod';
import { deferred, apiPaths, openApiDocumentSchema } from '@plant/shared-schema';
import { callApi } from '../../session/api';

/** What a Try it call answered: its status and its body (JSON, or the text). */
const rawAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({ status: z.number(), body: z.unknown() }),
);
export type TryAnswer = z.infer<typeof rawAnswerSchema>;

/** Which token a Try it call goes out with. */
export type TryToken =
  { readonly kind: 'session' } | { readonly kind: 'pasted'; readonly token: string };

export const referenceApi = {
  /** The OpenAPI document (public, but read like any call: through the worker). */
  document: () =>
    callApi('GET', apiPaths.openapi(), openApiDocumentSchema, { envelope: false, quiet: true }),
  /** A GET of a route with a token, answered as it came, whatever the status. */
  tryGet: (path: string, token: TryToken) =>
    callApi('GET', path, rawAnswerSchema, {
      envelope: false,
      quiet: true,
      raw: true,
      ...(token.kind === 'pasted' ? { token: token.token } : {}),
    }),
};
