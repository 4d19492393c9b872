import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from '../api/fields';
import { PROTOCOLS } from '../models/connection';
import { terminalCommandSchema } from './terminal';

/**
 * The messages between a gateway agent and the server's broker (DESIGN.md §8). The agent
 * publishes only under `gateway/{id}/up/…` and subscribes only to `gateway/{id}/down/…`.
 * Every message is JSON, parsed by these schemas on arrival.
 */

/** Limits of what one batch may carry; bigger batches are refused whole. */
export const GATEWAY_LIMITS = {
  pointsPerBatch: 5_000,
  /** A point's time may lie at most this far ahead of the server's clock. */
  futureMs: 5 * 60_000,
  /** Nor further back than this (a week's buffer plus slack). */
  pastMs: 400 * 86_400_000,
  textValueChars: 1_000,
} as const;

export const pointValueSchema = /* @__PURE__ */ deferred(() =>
  z.union([z.number(), z.boolean(), z.string().max(GATEWAY_LIMITS.textValueChars)]),
);
export type PointValue = z.infer<typeof pointValueSchema>;

/**
 * One value of one stream. `value` is checked against the stream's type by the server (NaN and
 * Infinity do not exist in JSON; a number where text is expected is refused per point).
 */
export const gatewayPointSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    stream: idField,
    ts: z.number().int().min(0),
    value: pointValueSchema,
  }),
);
export type GatewayPoint = z.infer<typeof gatewayPointSchema>;

/** `gateway/{id}/up/data`: a batch out of the agent's buffer; seq is gapless per gateway. */
export const gatewayBatchSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    gateway: idField,
    /**
     * The agent's buffer (a random id made with its buffer file): seq counts within it, so a
     * reinstalled agent starting at seq 1 again is not taken for a repeat of the old one's batches.
     */
    buffer: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    seq: z.number().int().min(1),
    points: z.array(gatewayPointSchema).min(1).max(GATEWAY_LIMITS.pointsPerBatch),
  }),
);
export type GatewayBatch = z.infer<typeof gatewayBatchSchema>;

/**
 * `gateway/{id}/down/ack`: the server's answer to a batch. `stored`: its points are stored (those
 * refused are listed); `duplicate`: this seq was stored before; `refused`: the batch as a whole was
 * not acceptable (not parseable, too big) and will never be: the agent drops it and says so;
 * `deferred`: the gateway sends more points than its rate allows (the server's share for other
 * gateways and requests): nothing of it is stored, the agent keeps it and sends it again after
 * `retry_after_ms`.
 */
export const gatewayAckSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    seq: z.number().int().min(0),
    status: z.enum(['stored', 'duplicate', 'refused', 'deferred']),
    stored: z.number().int().min(0).default(0),
    refused: z
      .array(z.object({ index: z.number().int().min(0), reason: z.string().max(500) }))
      .max(100)
      .default([]),
    message: z.string().max(500).optional(),
    retry_after_ms: z.number().int().min(0).max(3_600_000).optional(),
  }),
);
export type GatewayAck = z.infer<typeof gatewayAckSchema>;

/** One datapoint as the agent runs it: the stream's type decides how values are coerced. */
export const agentDatapointSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: idField,
    datastream_id: idField,
    stream_type: z.enum(['state', 'number', 'boolean', 'text']),
    /** The tag's name (the terminal's `read <tag>`). */
    tag: z.string().optional(),
    address: z.record(z.string(), z.unknown()),
    deadband: z.number().min(0),
    scale: z.number(),
    offset: z.number(),
  }),
);
export type AgentDatapoint = z.infer<typeof agentDatapointSchema>;

export const agentConnectionSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: idField,
    name: z.string(),
    protocol: z.enum(PROTOCOLS),
    settings: z.record(z.string(), z.unknown()),
    interval_ms: z.number().int().min(1),
    enabled: z.boolean(),
    datapoints: z.array(agentDatapointSchema),
  }),
);
export type AgentConnection = z.infer<typeof agentConnectionSchema>;

export const gatewayNetworkSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    ip_assignment: z.enum(['static', 'dhcp']),
    ip: z.string().nullable(),
    subnet_mask: z.string().nullable(),
    dns1: z.string().nullable(),
    dns2: z.string().nullable(),
  }),
);
export type GatewayNetwork = z.infer<typeof gatewayNetworkSchema>;

/**
 * The version a rollout wants the gateway to run (DESIGN.md §15), in its configuration while the
 * gateway's part is under way: kept there (retained) for a gateway offline now, which gets it when
 * it comes back. The agent downloads `artifact_path` (under the API base, with its own
 * credentials), checks `sha256` and the Ed25519 `signature` of `releaseSigningText` with the
 * account's release key (`release_key`, pinned at first sight), installs it beside the running
 * version, and reports on `up/update`.
 */
export const gatewayUpdateSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    deployment_id: idField,
    release_id: idField,
    account_id: idField,
    target: z.enum(['agent', 'firmware']),
    name: z.string().max(250),
    version: z.string().max(100),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    signature: z.string().max(200),
    key_id: z.string().max(100),
    size: z.number().int().min(1),
    artifact_path: z.string().max(500),
    /** Install only while the machine's stream of this name says this value (null: at once). */
    idle: z
      .object({ datastream_id: idField, value: z.union([z.number(), z.string()]) })
      .nullable()
      .default(null),
  }),
);
export type GatewayUpdate = z.infer<typeof gatewayUpdateSchema>;

/**
 * A module version active on assets of the gateway (DESIGN.md §15, issue 35 item 1): its interface
 * (the datapoints its machine software exposes and where they are read), its feature flags, its
 * actions and its data streams, applied to the gateway's configuration when the version is made
 * active on them (a configuration rollout: each gateway gets it as its next configuration,
 * retained for one offline now).
 */
export const gatewayModuleSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    release_id: idField,
    name: z.string().max(250),
    version: z.string().max(100),
    /** The gateway's assets it is active on. */
    asset_ids: z.array(idField),
    datapoints: z.array(
      z.object({ key: z.string(), address: z.string(), type: z.string(), unit: z.string() }),
    ),
    feature_flags: z.record(z.string(), z.boolean()),
    actions: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        datapoint: z.string(),
        value: z.union([z.number(), z.string(), z.boolean()]).nullable(),
      }),
    ),
    datastreams: z.array(
      z.object({
        key: z.string(),
        name: z.string(),
        datapoint: z.string(),
        type: z.string(),
        unit: z.string(),
      }),
    ),
  }),
);
export type GatewayModule = z.infer<typeof gatewayModuleSchema>;

/** The account's release key as the agent gets it (SPKI DER in base64, and its id). */
export const gatewayReleaseKeySchema = /* @__PURE__ */ deferred(() =>
  z.object({ public_key: z.string(), key_id: z.string() }),
);

/**
 * `gateway/{id}/down/config` (retained): the whole configuration, sent after every change. The
 * version grows with every change; the agent applies a newer version without a restart.
 */
export const gatewayConfigSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    gateway: idField,
    version: z.number().int().min(0),
    network: gatewayNetworkSchema,
    connections: z.array(agentConnectionSchema),
    /** The version a rollout wants it to run (null: none now). An older agent ignores it. */
    update: gatewayUpdateSchema.nullable().default(null),
    release_key: gatewayReleaseKeySchema.nullable().default(null),
    /** The module versions active on its assets. An older agent ignores them. */
    modules: z.array(gatewayModuleSchema).default([]),
  }),
);
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const CONNECTION_STATES = ['connecting', 'connected', 'failed', 'disabled'] as const;

export const connectionStatusSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: idField,
    state: z.enum(CONNECTION_STATES),
    error: z.string().max(1000).nullable().default(null),
    /** ms since epoch of the last successful read, null when none yet. */
    last_read: z.number().int().nullable().default(null),
  }),
);
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

export const interfaceAddressSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    interface: z.string().max(100),
    family: z.enum(['IPv4', 'IPv6']),
    address: z.string().max(100),
    netmask: z.string().max(100),
  }),
);

/**
 * `gateway/{id}/up/status`: what the agent runs, sent at start, after each config applied, on a
 * connection's change of state and every heartbeat (HEARTBEAT_MS).
 */
export const gatewayStatusSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    config_version: z.number().int().min(0).nullable(),
    started_at: z.number().int(),
    agent_version: z.string().max(50),
    addresses: z.array(interfaceAddressSchema).max(64),
    connections: z.array(connectionStatusSchema).max(1_000),
    buffer: z.object({
      pending: z.number().int().min(0),
      dropped: z.number().int().min(0),
    }),
    /** What the agent finds wrong with its setup (spec 001 §8: a static IP missing or wrong). */
    problems: z.array(z.string().max(500)).max(20).default([]),
  }),
);
export type GatewayStatus = z.infer<typeof gatewayStatusSchema>;

/**
 * `gateway/{id}/up/update`: where the agent stands with a rollout's version (DESIGN.md §15):
 * downloading, installing, then succeeded (running it, healthy), failed (not installed: a bad
 * hash or signature, a download that failed, with its words) or rolled back (installed, unhealthy,
 * the previous version running again).
 */
export const gatewayUpdateReportSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    deployment_id: idField,
    state: z.enum(['downloading', 'installing', 'succeeded', 'failed', 'rolled_back']),
    /** The version it runs now. */
    version: z.string().max(100),
    message: z.string().max(500).nullable().default(null),
  }),
);
export type GatewayUpdateReport = z.infer<typeof gatewayUpdateReportSchema>;

/** `gateway/{id}/up/logs`: the agent's recent log lines (info and above), a second's worth. */
export const gatewayLogLineSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    time: z.number(),
    level: z.enum(['info', 'warn', 'error']),
    msg: z.string().max(2_000),
    fields: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type GatewayLogLine = z.infer<typeof gatewayLogLineSchema>;
export const gatewayLogLinesSchema = /* @__PURE__ */ deferred(() =>
  z.array(gatewayLogLineSchema).max(200),
);
/** Log lines the server keeps per gateway (in memory: the agent's own log is the record). */
export const GATEWAY_LOG_LINES_KEPT = 500;

// The agent's heartbeat lives with the constants (the freshness rule reads it on pages that load
// no gateway schema).
export { GATEWAY_HEARTBEAT_MS } from '../constants';

/** OPC UA address-space requests through the agent (spec 001 §9: up to one minute). */
export const GATEWAY_REQUEST_TIMEOUT_MS = 60_000;

export const gatewayRequestSchema = /* @__PURE__ */ deferred(() =>
  z.discriminatedUnion('op', [
    z.object({
      id: z.string().min(1).max(64),
      op: z.literal('opcua-browse'),
      connection_id: idField,
      /** The node whose children are listed; the Objects folder when absent. */
      node_id: z.string().max(1000).optional(),
    }),
    z.object({
      id: z.string().min(1).max(64),
      op: z.literal('opcua-search'),
      connection_id: idField,
      /** Matched against display and browse names, case-insensitively. */
      query: z.string().min(1).max(250),
      max_results: z.number().int().min(1).max(1_000).default(200),
    }),
    z.object({
      id: z.string().min(1).max(64),
      op: z.literal('terminal'),
      command: terminalCommandSchema,
    }),
  ]),
);
export type GatewayRequest = z.infer<typeof gatewayRequestSchema>;

export const opcuaNodeSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    node_id: z.string(),
    browse_name: z.string(),
    display_name: z.string(),
    node_class: z.string(),
    /** For variables: the OPC UA data type's name. */
    data_type: z.string().nullable(),
    has_children: z.boolean(),
  }),
);
export type OpcuaNode = z.infer<typeof opcuaNodeSchema>;

/** `gateway/{id}/up/response`: the answer to a request, by its id. */
export const gatewayResponseSchema = /* @__PURE__ */ deferred(() =>
  z.union([
    z.object({
      id: z.string().min(1).max(64),
      ok: z.literal(true),
      nodes: z.array(opcuaNodeSchema).max(10_000),
      /** Search only: the walk stopped at its time or size bound before the whole space was seen. */
      truncated: z.boolean().default(false),
    }),
    z.object({ id: z.string().min(1).max(64), ok: z.literal(false), error: z.string().max(1000) }),
    /** A terminal command's output. */
    z.object({
      id: z.string().min(1).max(64),
      ok: z.literal(true),
      output: z.string().max(20_000),
    }),
  ]),
);
export type GatewayResponse = z.infer<typeof gatewayResponseSchema>;
