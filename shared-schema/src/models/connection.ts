import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import { boundedJson } from '../api/json-value';
import type { ModelDefinition } from './registry-types';
import { viewEditPermissions } from './model-permissions';
export { TAGNAME_USED } from './connection-texts';

/** A connection's state as its agent reports it (the server writes it; see serverFields). */
export const connectionStateSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    state: z.enum(['connecting', 'connected', 'failed', 'disabled']),
    error: z.string().max(1000).nullable(),
    last_read: z.number().int().nullable(),
    /** When the server last wrote it (again at least every minute while unchanged). */
    at: z.number().int(),
    /** Since when the state holds (the server's clock); absent in statuses stored before it. */
    since: z.number().int().optional(),
  }),
);
export type ConnectionState = z.infer<typeof connectionStateSchema>;

/**
 * A gateway's configuration (DESIGN.md §8): its connections to devices and, under each, the
 * datapoints that feed data streams. The names and fields are a contract: the agent, the wizard
 * and other tools read them.
 */

export const PROTOCOLS = ['modbus-tcp', 'opcua', 's7', 'simulator'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

const host = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: 'Please provide an address' })
    .trim()
    .min(1, 'Please provide an address')
    .max(253, 'Please provide an address')
    .regex(/^[A-Za-z0-9.:[\]_-]+$/, 'Please provide an address'),
);
const port = /* @__PURE__ */ deferred(() =>
  z.number().int().min(1, 'Must be at least 1').max(65_535),
);

export const modbusTcpSettingsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    host,
    port: port.default(502),
    unit_id: z.number().int().min(0).max(255).default(1),
  }),
);

export const OPCUA_SECURITY_MODES = ['none', 'sign', 'sign-and-encrypt'] as const;
export const opcuaSettingsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    endpoint: z
      .string({ error: 'Please provide a valid link' })
      .trim()
      .max(2000)
      .regex(/^opc\.tcp:\/\/[^\s/]+(:\d+)?(\/\S*)?$/, 'Please provide a valid link'),
    security_mode: z.enum(OPCUA_SECURITY_MODES).default('none'),
    username: z.string().max(250).optional(),
    /** Write-only: stored on the server, sent to the gateway, never back to browsers. */
    password: z.string().max(250).optional(),
    /** Set by the server in place of the password when one is stored. */
    password_set: z.boolean().optional(),
  }),
);

export const s7SettingsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    host,
    port: port.default(102),
    rack: z.number().int().min(0).max(7).default(0),
    slot: z.number().int().min(0).max(31).default(1),
  }),
);

export const simulatorSettingsSchema = /* @__PURE__ */ deferred(() => z.object({}));

export const SETTINGS_BY_PROTOCOL = {
  'modbus-tcp': modbusTcpSettingsSchema,
  opcua: opcuaSettingsSchema,
  s7: s7SettingsSchema,
  simulator: simulatorSettingsSchema,
} as const satisfies Record<Protocol, z.ZodObject>;

export type ModbusTcpSettings = z.infer<typeof modbusTcpSettingsSchema>;
export type OpcuaSettings = z.infer<typeof opcuaSettingsSchema>;
export type S7Settings = z.infer<typeof s7SettingsSchema>;

/** Secret fields of a connection's settings: kept by the server, never sent to browsers. */
export const CONNECTION_SECRET_FIELDS = ['password'] as const;

/** Poll interval bounds: the spec's simulator sends every 10 s; devices may be read faster. */
export const INTERVAL_MS = { min: 100, max: 86_400_000, default: 10_000 } as const;

export const connectionAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    gateway_id: idField,
    name: modelNameField,
    protocol: z.enum(PROTOCOLS),
    /**
     * The protocol's settings; which shape is checked against `protocol` (connectionProblems).
     * Each value bounded (the protocols' are a text, a number or a short list): a value nested
     * thousands deep overflowed the stack where the write is compared and logged (a 500).
     */
    settings: z.record(z.string().max(50), boundedJson(6, 400)).default({}),
    interval_ms: z
      .number({ error: 'Must be a number' })
      .int('Must be a number')
      .min(INTERVAL_MS.min, `Must be at least ${INTERVAL_MS.min}`)
      .max(INTERVAL_MS.max)
      .default(INTERVAL_MS.default),
    enabled: z.boolean().default(true),
    /** Reported by the gateway; null until it has run this connection. */
    status: connectionStateSchema.nullable().default(null),
  }),
);
export type ConnectionAttributes = z.infer<typeof connectionAttributesSchema>;

export const connectionModel = {
  type: 'connection',
  collection: 'connections',
  parentType: 'gateway',
  parentField: 'gateway_id',
  attributes: connectionAttributesSchema,
  refs: { gateway_id: 'gateway' },
  permissions: viewEditPermissions('gateway::view', 'gateway::edit'),
  sortField: 'name',
  serverFields: ['status'],
} as const satisfies ModelDefinition<'connection', typeof connectionAttributesSchema>;

// ---------------------------------------------------------------------------------------------
// Datapoints

export const MODBUS_AREAS = ['holding', 'input', 'coil', 'discrete'] as const;
export const MODBUS_DATATYPES = ['int16', 'uint16', 'int32', 'uint32', 'float32'] as const;
export type ModbusDatatype = (typeof MODBUS_DATATYPES)[number];
/** Word order of 32-bit values: `big` = high word first (Modbus' usual), `little` = low first. */
export const WORD_ORDERS = ['big', 'little'] as const;

export const modbusAddressSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    area: z.enum(MODBUS_AREAS),
    index: z.number().int().min(0).max(65_535),
    datatype: z.enum(MODBUS_DATATYPES).default('uint16'),
    word_order: z.enum(WORD_ORDERS).default('big'),
    /** Bytes swapped inside each 16-bit register. */
    byte_swap: z.boolean().default(false),
  }),
);
export type ModbusAddress = z.infer<typeof modbusAddressSchema>;

export const opcuaAddressSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    node_id: z
      .string({ error: 'Field is required' })
      .trim()
      .min(1, 'Field is required')
      .max(1000)
      .regex(/^(ns=\d+;)?[isgb]=.+$/, 'Please provide a valid node id'),
  }),
);
export type OpcuaAddress = z.infer<typeof opcuaAddressSchema>;

export const S7_DATATYPES = ['bool', 'byte', 'int', 'word', 'dint', 'dword', 'real'] as const;
export type S7Datatype = (typeof S7_DATATYPES)[number];
/**
 * S7 addresses in the usual notation: `DB1.DBX0.3`, `DB1.DBB2`, `DB1.DBW4`, `DB1.DBD8`, `M10.1`,
 * `MB10`, `MW10`, `MD10`, `I0.0`, `IB0`, `IW0`, `ID0`, `Q0.0`, `QB0`, `QW0`, `QD0` (E/A also).
 */
export const S7_ADDRESS =
  /^(DB\d{1,5}\.DB(X\d{1,5}\.[0-7]|[BWD]\d{1,5})|[MIQEA](\d{1,5}\.[0-7]|[BWD]\d{1,5}))$/i;
export const s7AddressSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    address: z
      .string({ error: 'Field is required' })
      .trim()
      .regex(S7_ADDRESS, 'Please provide a valid S7 address, for example DB1.DBD4'),
    datatype: z.enum(S7_DATATYPES),
  }),
);
export type S7Address = z.infer<typeof s7AddressSchema>;

/** Simulated curves (spec 001 §9: a simulated datapoint every 10 s). */
export const SIMULATOR_SHAPES = [
  'sine',
  'ramp',
  'random-walk',
  'state',
  'boolean',
  'text',
] as const;
export type SimulatorShape = (typeof SIMULATOR_SHAPES)[number];
export const simulatorAddressSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    shape: z.enum(SIMULATOR_SHAPES).default('sine'),
    min: z.number().finite().default(0),
    max: z.number().finite().default(100),
    /** Period of sine and ramp, in seconds. */
    period_s: z.number().int().min(10).max(604_800).default(3_600),
    /** The states a `state` shape cycles through; texts a `text` shape picks from. */
    states: z
      .array(z.union([z.number(), z.string().max(250)]))
      .max(50)
      .default([]),
  }),
);
export type SimulatorAddress = z.infer<typeof simulatorAddressSchema>;

export const ADDRESS_BY_PROTOCOL = {
  'modbus-tcp': modbusAddressSchema,
  opcua: opcuaAddressSchema,
  s7: s7AddressSchema,
  simulator: simulatorAddressSchema,
} as const satisfies Record<Protocol, z.ZodObject>;

export const datapointAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    connection_id: idField,
    /** The tag's name, unique (ignoring case) among the gateway's tags; '' for an unnamed one. */
    tag: z.string().trim().max(100, 'The name may not be longer than 100 characters').default(''),
    /** Null once its stream is deleted: the datapoint then reads nothing until given another. */
    datastream_id: idField.nullable(),
    /**
     * The protocol's address; its shape is checked against the connection's protocol. Each value
     * bounded, as a connection's `settings`.
     */
    address: z.record(z.string().max(50), boundedJson(6, 400)).default({}),
    /** Report by exception: a value is sent when it moved more than this since the last one sent. */
    deadband: z.number().finite().min(0).default(0),
    /** Linear scaling of raw device values: value * scale + offset. */
    scale: z.number().finite().default(1),
    offset: z.number().finite().default(0),
  }),
);
export type DatapointAttributes = z.infer<typeof datapointAttributesSchema>;

export const datapointModel = {
  type: 'datapoint',
  collection: 'datapoints',
  parentType: 'connection',
  parentField: 'connection_id',
  attributes: datapointAttributesSchema,
  refs: { connection_id: 'connection', datastream_id: 'datastream' },
  permissions: viewEditPermissions('gateway::view', 'gateway::edit'),
  sortField: 'datastream_id',
} as const satisfies ModelDefinition<'datapoint', typeof datapointAttributesSchema>;

/** Per-field problems of settings that do not fit the protocol (422 texts). */
export function settingsProblems(protocol: Protocol, settings: unknown): Record<string, string[]> {
  const parsed = SETTINGS_BY_PROTOCOL[protocol].safeParse(settings);
  return parsed.success ? {} : issuesByField('settings', parsed.error);
}

/** Per-field problems of an address that does not fit the protocol (422 texts). */
export function addressProblems(protocol: Protocol, address: unknown): Record<string, string[]> {
  const parsed = ADDRESS_BY_PROTOCOL[protocol].safeParse(address);
  return parsed.success ? {} : issuesByField('address', parsed.error);
}

function issuesByField(prefix: string, error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = [prefix, ...issue.path.map(String)].join('.');
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
