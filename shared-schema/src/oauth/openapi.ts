import { z } from 'zod';
import { deferred, toJsonSchema } from '../deferred';
import { API_BASE } from '../api-paths';
import { validationErrorSchema } from '../api/envelope';
import { API_ROUTES, type ApiRoute, type RouteAccess } from './catalog';
import { SCOPES } from './scopes';

/*
 * The API reference (issue 18 item 5): an OpenAPI 3.1 document made from the route catalog and
 * the shared zod schemas, served at GET /api/v1/openapi.json and rendered at /app/api. What a
 * route needs is said twice: as OpenAPI's `security` (the bearer scheme with the scopes it asks
 * for) and as `x-access`, the catalog's own RouteAccess, which also tells first-party routes
 * (the app's own sign-in only) from those any token may call.
 */

type JsonSchema = Record<string, unknown>;

/** The parts of an operation this document writes (and the reference page reads). */
export const openApiParameterSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: z.string(),
    in: z.enum(['path', 'query']),
    required: z.boolean(),
    schema: z.record(z.string(), z.unknown()),
    description: z.string().optional(),
  }),
);
export type OpenApiParameter = z.infer<typeof openApiParameterSchema>;

const mediaSchema = /* @__PURE__ */ deferred(() =>
  z.record(z.string(), z.object({ schema: z.record(z.string(), z.unknown()).optional() })),
);

export const openApiOperationSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    operationId: z.string(),
    summary: z.string(),
    tags: z.array(z.string()),
    security: z.array(z.record(z.string(), z.array(z.string()))),
    'x-access': z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('public') }),
      z.object({ kind: z.literal('first-party') }),
      z.object({ kind: z.literal('any') }),
      z.object({ kind: z.literal('scopes'), scopes: z.array(z.string()) }),
    ]),
    parameters: z.array(openApiParameterSchema).optional(),
    requestBody: z.object({ required: z.boolean(), content: mediaSchema }).optional(),
    responses: z.record(
      z.string(),
      z.object({ description: z.string(), content: mediaSchema.optional() }),
    ),
  }),
);
export type OpenApiOperation = z.infer<typeof openApiOperationSchema>;

/** The document as the reference page reads it (unknown parts are kept, not checked). */
export const openApiDocumentSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    openapi: z.string(),
    info: z.object({ title: z.string(), version: z.string(), description: z.string().optional() }),
    servers: z.array(z.object({ url: z.string() })),
    tags: z.array(z.object({ name: z.string() })),
    paths: z.record(z.string(), z.record(z.string(), openApiOperationSchema)),
    components: z.object({ securitySchemes: z.record(z.string(), z.unknown()) }).loose(),
  }),
);
export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;

/** The security scheme's name in the document. */
export const BEARER_SCHEME = 'bearer';

/** `/oauth/clients/:id` as OpenAPI writes it: `/oauth/clients/{id}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)/g, '{$1}');
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Transforms and refinements have no JSON Schema: their input (what a caller sends) or output
  // (what it gets) stands for them. The dialect is the document's own (3.1: 2020-12).
  const out = toJsonSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

function parametersOf(route: ApiRoute): OpenApiParameter[] {
  const out: OpenApiParameter[] = [];
  const add = (where: 'path' | 'query', schema: z.ZodType | undefined) => {
    if (schema === undefined) return;
    const object = jsonSchema(schema, 'input');
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((object.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: property,
      });
    }
  };
  add('path', route.params);
  add('query', route.query);
  return out;
}

function securityOf(access: RouteAccess): Record<string, string[]>[] {
  switch (access.kind) {
    case 'public':
      return [];
    case 'first-party':
    case 'any':
      return [{ [BEARER_SCHEME]: [] }];
    case 'scopes':
      return [{ [BEARER_SCHEME]: [...access.scopes] }];
    default: {
      const never: never = access;
      return never;
    }
  }
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
};

function responsesOf(route: ApiRoute): OpenApiOperation['responses'] {
  const status = route.status ?? 200;
  const json = (schema: z.ZodType) => ({
    'application/json': { schema: jsonSchema(schema, 'output') },
  });
  const responses: OpenApiOperation['responses'] = {
    [String(status)]: {
      description: STATUS_TEXT[status] ?? 'Success',
      ...(route.response === undefined ? {} : { content: json(route.response) }),
    },
  };
  if (route.access.kind !== 'public') {
    responses['401'] = { description: 'No token, or a token that is not valid any more.' };
  }
  if (route.access.kind === 'first-party') {
    responses['403'] = { description: "Not the app's own sign-in, or the user may not." };
  } else if (route.access.kind !== 'public') {
    responses['403'] = {
      description: "The token's scopes or the user's permissions do not allow it.",
    };
  }
  if (route.params !== undefined || route.query !== undefined || route.body !== undefined) {
    responses['422'] = {
      description: 'Invalid input: a message per field.',
      content: json(validationErrorSchema),
    };
  }
  return responses;
}

function operationOf(route: ApiRoute): OpenApiOperation {
  const parameters = parametersOf(route);
  return {
    operationId:
      `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_$/, ''),
    summary: route.summary,
    tags: [route.tag],
    security: securityOf(route.access),
    'x-access':
      route.access.kind === 'scopes'
        ? { kind: 'scopes', scopes: [...route.access.scopes] }
        : { kind: route.access.kind },
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }),
    responses: responsesOf(route),
  };
}

/** The OpenAPI 3.1 document of these routes (the whole catalog unless told). */
export function openApiDocument(routes: readonly ApiRoute[] = API_ROUTES): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  for (const route of routes) {
    if (!tags.includes(route.tag)) tags.push(route.tag);
    const at = (paths[openApiPath(route.path)] ??= {});
    at[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plant API',
      version: '1',
      description:
        'Every call of the API. A personal access token or an application token calls the routes its scopes allow (a write scope includes its read); what it then reads or changes is what its role and its user may, today.',
    },
    servers: [{ url: API_BASE }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: `A Bearer token. Scopes: ${SCOPES.map((s) => s.id).join(', ')}.`,
        },
      },
    },
  };
}
