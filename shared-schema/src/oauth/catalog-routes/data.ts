import { z } from 'zod';
import { deferred } from '../../deferred';
import { idField } from '../../api/fields';
import {
  alarmRecipientAnswerSchema,
  alarmRecipientConfirmQuerySchema,
  alarmRecipientDecisionSchema,
  alarmRecipientPaths,
} from '../../api/alarm-recipients';
import { alarmEventSchema, alarmHistoryQuerySchema } from '../../api/alarms';
import { articleSearchAnswerSchema, articleSearchQuerySchema } from '../../api/articles';
import { releaseHistoryEntrySchema, releaseKeyInfoSchema } from '../../models/release';
import {
  gatewayCredentialListSchema,
  gatewayCredentialsMadeSchema,
} from '../../api/gateway-credentials';
import { linkGatewayQuerySchema, linkGatewayResultSchema } from '../../api/link-gateway';
import {
  opcuaBrowseBodySchema,
  opcuaNodesAnswerSchema,
  opcuaSearchBodySchema,
} from '../../api/opcua';
import { preprocessingTryAnswerSchema, preprocessingTrySchema } from '../../models/datastream';
import { uploadChunkQuerySchema, uploadStateSchema } from '../../models/file';
import { gatewayLogLineSchema } from '../../protocol/gateway';
import { terminalAuditSchema } from '../../protocol/terminal';
import {
  latestValuesSchema,
  severalValuesQuerySchema,
  streamValuesSchema,
  valuesCsvQuerySchema,
  valuesQuerySchema,
} from '../../protocol/values';
import { batchAnswerSchema, batchRequestSchema } from '../../protocol/write';
import { callConfigSchema, callStartSchema, serviceCallStartSchema } from '../../protocol/calls';
import { ANY_TOKEN, FIRST_PARTY, PUBLIC, needs, type ApiRoute } from '../route-access';
import { idParams, data } from './shared';

const callParams = /* @__PURE__ */ deferred(() => z.object({ id: idField, callId: idField }));

// Parameters and queries that the routes check with schemas of their own (server/src/routes),
// here as a caller sends them.
const collectionParams = /* @__PURE__ */ deferred(() =>
  z.object({ collection: z.string().max(64) }),
);
const modelParams = /* @__PURE__ */ deferred(() =>
  z.object({ collection: z.string().max(64), id: z.string().max(64) }),
);
const alarmHistoryPageSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    events: z.array(alarmEventSchema),
    before: z.number().nullable(),
  }),
);

const modelBody = /* @__PURE__ */ deferred(() => z.record(z.string(), z.unknown()));
const alarmRecipientConfirm = `/${alarmRecipientPaths.confirm()}`;

/** Gateways, machine values, files, alarms, the generic model writes and this reference. */
export const DATA_ROUTES: readonly ApiRoute[] = [
  // --- Gateways ------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/linkGateway',
    access: needs('gateways:read'),
    tag: 'Gateways',
    summary: 'A scanned gateway code: where to go, and the account to switch to first.',
    query: linkGatewayQuerySchema,
    response: data(linkGatewayResultSchema),
  },
  {
    method: 'POST',
    path: '/gateways/:id/credentials',
    access: needs('gateways:write'),
    tag: 'Gateways',
    summary: "New broker credentials for the gateway's agent (shown this once; the old ones end).",
    params: idParams,
    response: data(gatewayCredentialsMadeSchema),
    status: 201,
  },
  {
    method: 'GET',
    path: '/gateways/:id/credentials',
    access: needs('gateways:read'),
    tag: 'Gateways',
    summary: "The gateway's live broker credentials, without secrets.",
    params: idParams,
    response: data(gatewayCredentialListSchema),
  },
  {
    method: 'DELETE',
    path: '/gateways/:id/credentials',
    access: needs('gateways:write'),
    tag: 'Gateways',
    summary: "Revokes the gateway's broker credentials.",
    params: idParams,
  },
  {
    method: 'GET',
    path: '/gateways/:id/logs',
    access: needs('gateways:read'),
    tag: 'Gateways',
    summary: "The agent's recent log lines.",
    params: idParams,
    response: data(z.array(gatewayLogLineSchema)),
  },
  {
    method: 'GET',
    path: '/gateways/:id/terminal',
    access: needs('gateways:read'),
    tag: 'Gateways',
    summary: "The gateway's terminal commands and their answers, newest first.",
    params: idParams,
    response: data(terminalAuditSchema),
  },
  {
    method: 'POST',
    path: '/gateways/:id/opcua/browse',
    access: needs('gateways:write'),
    tag: 'Gateways',
    summary: "The children of a node of an OPC UA connection's address space, through the agent.",
    params: idParams,
    body: opcuaBrowseBodySchema,
    response: data(opcuaNodesAnswerSchema),
  },
  {
    method: 'POST',
    path: '/gateways/:id/opcua/search',
    access: needs('gateways:write'),
    tag: 'Gateways',
    summary: 'Variables of an OPC UA connection whose name contains the text, through the agent.',
    params: idParams,
    body: opcuaSearchBodySchema,
    response: data(opcuaNodesAnswerSchema),
  },

  // --- Machine values ------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/datastreams/values',
    access: needs('datastreams:read'),
    tag: 'Values',
    summary: 'Several streams over one range, downsampled to about `points` each.',
    query: severalValuesQuerySchema,
    response: data(z.array(streamValuesSchema)),
  },
  {
    method: 'GET',
    path: '/datastreams/:id/values',
    access: needs('datastreams:read'),
    tag: 'Values',
    summary:
      "A stream's values over a range, downsampled to about `points`; with `aggregate=hour`, its hourly count, sum, min and max instead.",
    params: idParams,
    query: valuesQuerySchema,
    response: data(streamValuesSchema),
  },
  {
    method: 'GET',
    path: '/datastreams/:id/values.csv',
    access: needs('datastreams:read'),
    tag: 'Values',
    summary: "A stream's raw values over a range as CSV (text/csv).",
    params: idParams,
    query: valuesCsvQuerySchema,
  },
  {
    method: 'POST',
    path: '/datastreams/:id/preprocessing/try',
    access: needs('datastreams:write'),
    tag: 'Values',
    summary: "Runs pre-processing code on the stream's latest value (or one given).",
    params: idParams,
    body: preprocessingTrySchema,
    response: data(preprocessingTryAnswerSchema),
  },
  {
    method: 'GET',
    path: '/assets/:id/values/latest',
    access: needs('datastreams:read'),
    tag: 'Values',
    summary: "The last value of each of an asset's streams.",
    params: idParams,
    response: data(latestValuesSchema),
  },

  // --- Files ---------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/files/:id/upload',
    access: needs('assets:read'),
    tag: 'Files',
    summary: "Where a file's upload stands.",
    params: idParams,
    response: data(uploadStateSchema),
  },
  {
    method: 'PUT',
    path: '/files/:id/upload',
    access: needs('assets:write'),
    tag: 'Files',
    summary: "A file's next chunk (the raw bytes as the body) at `offset`.",
    params: idParams,
    query: uploadChunkQuerySchema,
    response: data(uploadStateSchema),
  },
  {
    method: 'GET',
    path: '/files/:id/content',
    access: needs('assets:read'),
    tag: 'Files',
    summary: "A file's bytes.",
    params: idParams,
  },
  {
    method: 'GET',
    path: '/files/:id/thumbnail',
    access: needs('assets:read'),
    tag: 'Files',
    summary: 'A small WebP of an image file.',
    params: idParams,
  },

  // --- Alarms --------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/alarms/:id/history',
    access: needs('alarms:read'),
    tag: 'Alarms',
    summary: "One alarm's raises, clears and acknowledgements, newest first.",
    params: idParams,
    query: alarmHistoryQuerySchema.omit({ asset_id: true }),
    response: data(alarmHistoryPageSchema),
  },
  {
    method: 'GET',
    path: '/alarm-history',
    access: needs('alarms:read'),
    tag: 'Alarms',
    summary: "The active account's alarm history (of one asset with `asset_id`), newest first.",
    query: alarmHistoryQuerySchema,
    response: data(alarmHistoryPageSchema),
  },
  // --- Release management ----------------------------------------------------------------------
  {
    method: 'GET',
    path: '/releases/key',
    access: needs('gateways:read'),
    tag: 'Release management',
    summary:
      "The account's release key's public half (Ed25519, SPKI DER in base64) and its id, which check a released version's signature; null before the account's first release.",
    response: data(releaseKeyInfoSchema),
  },
  {
    method: 'GET',
    path: '/releases/:id/history',
    access: needs('gateways:read'),
    tag: 'Release management',
    summary:
      "A version's history, newest first: the version made, changed and moved, its rollouts started and moved, each gateway's step, with who did it (null: the server or the gateway's agent) and when.",
    params: z.object({ id: idField }),
    response: data(z.array(releaseHistoryEntrySchema)),
  },
  {
    method: 'GET',
    path: '/gateway/releases/:id/artifact',
    // No token: the gateway's own credentials (HTTP Basic: its broker user name and secret).
    access: PUBLIC,
    tag: 'Release management',
    summary:
      "A released version's file, for a gateway whose rollout wants it to run that version (HTTP Basic with the gateway's broker login); 404 otherwise.",
    params: z.object({ id: idField }),
  },
  // --- Help centre -----------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/articles/search',
    access: needs('insights:read'),
    tag: 'Help centre',
    summary:
      'Published articles whose words start with every word of `q` (ß as ss, umlauts as their plain spellings), best first.',
    query: articleSearchQuerySchema,
    response: articleSearchAnswerSchema,
  },
  {
    method: 'GET',
    path: alarmRecipientConfirm,
    access: PUBLIC,
    tag: 'Alarms',
    summary: "The mailed recipient invitation's page (text/html) with Confirm and Decline.",
    query: alarmRecipientConfirmQuerySchema,
  },
  {
    method: 'POST',
    path: alarmRecipientConfirm,
    access: PUBLIC,
    tag: 'Alarms',
    summary: "A recipient's answer to an invitation (JSON, or the page's form).",
    body: alarmRecipientDecisionSchema,
    response: data(alarmRecipientAnswerSchema),
  },

  // --- Models (the generic write routes of the registry's models) ----------------------------
  {
    method: 'POST',
    path: '/:collection',
    access: ANY_TOKEN,
    tag: 'Models',
    summary:
      "Creates a model of the collection, or several (a list of { batch_id, data }); the type's create permission applies.",
    params: collectionParams,
    body: z.union([modelBody, batchRequestSchema]),
  },
  {
    method: 'PUT',
    path: '/:collection',
    access: ANY_TOKEN,
    tag: 'Models',
    summary: 'Updates several models of the collection (each item names its id).',
    params: collectionParams,
    body: batchRequestSchema,
    response: batchAnswerSchema,
  },
  {
    method: 'DELETE',
    path: '/:collection',
    access: ANY_TOKEN,
    tag: 'Models',
    summary: 'Deletes several models of the collection (each item names its id).',
    params: collectionParams,
    body: batchRequestSchema,
    response: batchAnswerSchema,
  },
  {
    method: 'PUT',
    path: '/:collection/:id',
    access: ANY_TOKEN,
    tag: 'Models',
    summary:
      "Updates a model's attributes; the type's edit permission and the asset's access apply.",
    params: modelParams,
    body: modelBody,
  },
  {
    method: 'DELETE',
    path: '/:collection/:id',
    access: ANY_TOKEN,
    tag: 'Models',
    summary: 'Deletes a model and everything under it.',
    params: modelParams,
    body: modelBody,
  },

  // --- Calls of service requests (issue 34): the app's own, with the browser's broker link ------
  {
    method: 'POST',
    path: '/service_requests/:id/calls',
    access: FIRST_PARTY,
    tag: 'Service requests',
    summary: 'Starts a call of the request with a free agent (409: all agents busy or away).',
    params: idParams,
    body: callStartSchema,
    response: data(serviceCallStartSchema),
    status: 201,
  },
  {
    method: 'POST',
    path: '/service_requests/:id/calls/:callId/end',
    access: FIRST_PARTY,
    tag: 'Service requests',
    summary: 'Ends a call of the request (either party).',
    params: callParams,
  },
  {
    method: 'GET',
    path: '/calls/config',
    access: FIRST_PARTY,
    tag: 'Service requests',
    summary: 'The STUN and TURN servers the browsers use for calls.',
    response: data(callConfigSchema),
  },

  // --- This reference ------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/openapi.json',
    access: PUBLIC,
    tag: 'Reference',
    summary: 'This API reference as an OpenAPI 3.1 document.',
  },
];
