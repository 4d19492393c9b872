import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from './fields';

/** POST gateways/{id}/opcua/browse: the children of a node (the Objects folder when absent). */
export const opcuaBrowseBodySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    connection_id: idField,
    node_id: z.string().trim().min(1).max(1000).optional(),
  }),
);

/** POST gateways/{id}/opcua/search: variables whose name contains the text (spec: up to 1 min). */
export const opcuaSearchBodySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    connection_id: idField,
    query: z
      .string({ error: 'Search needs at least 3 characters' })
      .trim()
      .min(3, 'Search needs at least 3 characters')
      .max(250),
    max_results: z.number().int().min(1).max(1_000).default(200),
  }),
);

/** The answer of both: the nodes found; `truncated` when a search stopped at a bound. */
export const opcuaNodesAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    nodes: z.array(
      z.object({
        node_id: z.string(),
        browse_name: z.string(),
        display_name: z.string(),
        node_class: z.string(),
        data_type: z.string().nullable(),
        has_children: z.boolean(),
      }),
    ),
    truncated: z.boolean(),
  }),
);
export type OpcuaNodesAnswer = z.infer<typeof opcuaNodesAnswerSchema>;
