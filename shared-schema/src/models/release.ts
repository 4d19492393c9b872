import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { DATASTREAM_TYPES } from './datastream';
import { RELEASE_TEXTS } from './release-texts';
export { DEPLOYMENT_TEXTS, RELEASE_FILE_TEXTS, RELEASE_TEXTS } from './release-texts';

/*
 * Release management (DESIGN.md §15, issue 35): firmware, the boards it runs on, and versions
 * (releases) of the gateway agent, of firmware and of modules (the machine software a gateway
 * talks to). A version is a draft until it is released; from then on it can no longer change,
 * save moving on to active, and its artifact carries its SHA-256 and the account's Ed25519
 * signature (the server's, at release: server/src/releases/). All of it is the account's, under
 * the `release::…` permissions (spec 000's menu entry "release management").
 */

export const RELEASE_PERMISSIONS = ownPermissions('release');

export const RELEASE_TARGETS = ['agent', 'firmware', 'module'] as const;
export type ReleaseTarget = (typeof RELEASE_TARGETS)[number];

/** Spec 001 §4: draft, released, active. */
export const RELEASE_STATES = ['draft', 'released', 'active'] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];

/** The moves a version's state may make (a released version never goes back to draft). */
export const RELEASE_MOVES: Readonly<Record<ReleaseState, readonly ReleaseState[]>> = {
  draft: ['released'],
  released: ['active'],
  active: ['released'],
};

/** Semantic versioning 2.0.0: major.minor.patch, an optional pre-release and build part. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export const versionField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: RELEASE_TEXTS.versionInvalid })
    .trim()
    .max(100, RELEASE_TEXTS.versionInvalid)
    .regex(SEMVER, RELEASE_TEXTS.versionInvalid),
);

/**
 * Orders two semantic versions: negative when `a` comes first (1.9.0 before 1.10.0; a pre-release
 * before its release; the build part does not count).
 */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = SEMVER.exec(v);
    if (m === null) return null;
    return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4]?.split('.') ?? [] };
  };
  const x = parse(a);
  const y = parse(b);
  if (x === null || y === null) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) {
    const d = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn && Number(p) !== Number(q)) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

const requiredText = (message: string, max = 250) =>
  z.string({ error: message }).trim().min(1, { error: message, abort: true }).max(max, message);

/** Firmware (spec 001 §3: a type and a name), one version of it, its image a file. */
export const firmwareAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    type: requiredText(RELEASE_TEXTS.firmwareType, 100),
    name: requiredText(RELEASE_TEXTS.firmwareName),
    description: z.string().trim().max(2000).default(''),
  }),
);
export type FirmwareAttributes = z.infer<typeof firmwareAttributesSchema>;

export const firmwareModel = {
  type: 'firmware',
  collection: 'firmware',
  parentType: 'account',
  attributes: firmwareAttributesSchema,
  permissions: RELEASE_PERMISSIONS,
  sortField: 'name',
} as const satisfies ModelDefinition<'firmware', typeof firmwareAttributesSchema>;

export const PIN_KINDS = ['gpio', 'i2c'] as const;
export type PinKind = (typeof PIN_KINDS)[number];

export const boardPinSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    name: modelNameField,
    number: z.number({ error: 'Must be a number' }).int().min(0).max(1024),
    kind: z.enum(PIN_KINDS).default('gpio'),
  }),
);
export type BoardPin = z.infer<typeof boardPinSchema>;

/** A board (spec 001 §3): its name, the firmware it runs and its pins (name, number, GPIO or I2C). */
export const boardAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: requiredText(RELEASE_TEXTS.boardName),
    firmware_id: idField.nullable().default(null),
    pins: z
      .array(boardPinSchema)
      .max(256)
      .refine((pins) => new Set(pins.map((p) => p.number)).size === pins.length, {
        error: RELEASE_TEXTS.pinTwice,
      })
      .default([]),
  }),
);
export type BoardAttributes = z.infer<typeof boardAttributesSchema>;

export const boardModel = {
  type: 'board',
  collection: 'boards',
  parentType: 'account',
  attributes: boardAttributesSchema,
  refs: { firmware_id: 'firmware' },
  permissions: RELEASE_PERMISSIONS,
  sortField: 'name',
} as const satisfies ModelDefinition<'board', typeof boardAttributesSchema>;

const keyField = /* @__PURE__ */ deferred(() =>
  z
    .string()
    .trim()
    .min(1, RELEASE_TEXTS.nameRequired)
    .max(100)
    .regex(
      /^[A-Za-z_][\w.-]*$/,
      'Letters, digits, dots, dashes and underscores, not first a digit.',
    ),
);

/** What a module's machine software exposes (spec 000 §2's "interface" tab). */
export const moduleInterfaceSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    datapoints: z
      .array(
        z.strictObject({
          key: keyField,
          /** Where the gateway reads it (an address in the machine's protocol). */
          address: z.string().trim().max(250).default(''),
          type: z.enum(DATASTREAM_TYPES).default('number'),
          unit: z.string().trim().max(20).default(''),
        }),
      )
      .max(500)
      .default([]),
  }),
);

export const releaseAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    target: z.enum(RELEASE_TARGETS),
    /** What is released: the agent's, a firmware's or a module's name. */
    name: modelNameField,
    version: versionField,
    state: z.enum(RELEASE_STATES).default('draft'),
    notes: z.string().trim().max(10_000).default(''),
    /** The firmware this version is of (target firmware). */
    firmware_id: idField.nullable().default(null),
    /** The boards it fits (none: any); a deployment to a gateway of another board is refused. */
    boards: z.array(idField).max(100).default([]),
    /** The artifact: a file of the release (kind 'artifact'), uploaded like any file (§9). */
    artifact_file_id: idField.nullable().default(null),
    /** The server's, at release: the artifact's SHA-256 (hex) and its Ed25519 signature (base64). */
    artifact_sha256: z.string().nullable().default(null),
    signature: z.string().nullable().default(null),
    /** The key that signed it: the public half's SHA-256, hex (the agent knows it by this). */
    key_id: z.string().nullable().default(null),
    /** That key's public half (SPKI DER, base64): what gateways are given to check it with. */
    public_key: z.string().nullable().default(null),
    released_by: z.string().nullable().default(null),
    released_at: z.number().int().nullable().default(null),
    changed_by: z.string().nullable().default(null),
    changed_at: z.number().int().nullable().default(null),
    /**
     * A module version's assets: active, it is applied to their gateways' configuration (the
     * interface, flags, actions and streams). Who runs it is no part of the version: it changes
     * after release too.
     */
    assets: z.array(idField).max(5_000).default([]),
    /** A module's tabs (spec 000 §2): general is the above, then these four. */
    interface: moduleInterfaceSchema.default({ datapoints: [] }),
    feature_flags: z
      .array(
        z.strictObject({
          key: keyField,
          enabled: z.boolean().default(false),
          description: z.string().trim().max(500).default(''),
        }),
      )
      .max(200)
      .default([]),
    actions: z
      .array(
        z.strictObject({
          key: keyField,
          label: modelNameField,
          /** The datapoint the action writes, and the value. */
          datapoint: z.string().trim().max(100).default(''),
          value: z
            .union([z.number().finite(), z.string().max(250), z.boolean()])
            .nullable()
            .default(null),
        }),
      )
      .max(200)
      .default([]),
    datastreams: z
      .array(
        z.strictObject({
          key: keyField,
          name: modelNameField,
          datapoint: z.string().trim().max(100).default(''),
          type: z.enum(DATASTREAM_TYPES).default('number'),
          unit: z.string().trim().max(20).default(''),
        }),
      )
      .max(500)
      .default([]),
  }),
);
export type ReleaseAttributes = z.infer<typeof releaseAttributesSchema>;

export const releaseModel = {
  type: 'release',
  collection: 'releases',
  parentType: 'account',
  attributes: releaseAttributesSchema,
  refs: { firmware_id: 'firmware', artifact_file_id: 'file' },
  permissions: RELEASE_PERMISSIONS,
  sortField: 'name',
  fixed: ['target'],
  serverFields: [
    'artifact_sha256',
    'signature',
    'key_id',
    'public_key',
    'released_by',
    'released_at',
    'changed_by',
    'changed_at',
  ],
} as const satisfies ModelDefinition<'release', typeof releaseAttributesSchema>;

/**
 * What an agent signs and checks (DESIGN.md §15): the release's identity and its artifact's hash,
 * one line each, so a signature of one version's file never passes for another's.
 */
export function releaseSigningText(release: {
  readonly accountId: string;
  readonly id: string;
  readonly target: ReleaseTarget;
  readonly name: string;
  readonly version: string;
  readonly sha256: string;
}): string {
  return [
    'plant-release/1',
    release.accountId,
    release.id,
    release.target,
    release.name,
    release.version,
    release.sha256,
  ].join('\n');
}

/** The account's release key as agents and people see it (GET releases/key). */
export const releaseKeyInfoSchema = /* @__PURE__ */ deferred(() =>
  z
    .object({
      /** SPKI DER, base64. */
      public_key: z.string(),
      /** The SHA-256 of the DER, hex (a release's `key_id`). */
      key_id: z.string(),
    })
    .nullable(),
);
export type ReleaseKeyInfo = z.infer<typeof releaseKeyInfoSchema>;

/** One step of a version's history (issue 35 item 5): GET releases/{id}/history, newest first. */
export const releaseHistoryEntrySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    subject: z.enum(['release', 'deployment', 'gateway']),
    /** The release's, the rollout's or the gateway's id. */
    subject_id: z.string(),
    event: z.enum(['created', 'changed', 'state']),
    from_state: z.string().nullable(),
    to_state: z.string().nullable(),
    /** What changed (field names), how many gateways a rollout took, a gateway's words. */
    detail: z.string().nullable(),
    /** Who did it: a user's id; null: the server or the gateway's agent. */
    by: z.string().nullable(),
    at: z.number(),
  }),
);
export type ReleaseHistoryEntry = z.infer<typeof releaseHistoryEntrySchema>;
