import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { RELEASE_PERMISSIONS } from './release';
import { DEPLOYMENT_TEXTS } from './release-texts';

/*
 * Deployments (DESIGN.md §15, issue 35 item 3): one released version rolled out to gateways, chosen
 * by list, by tag or all the user may manage, batch by batch; the rollout halts by itself when
 * the failures of what it has done pass its limit, and can be paused, resumed or cancelled. Each
 * gateway's part is a `deployment_gateway` the server writes as the gateway's agent reports
 * (pending, downloading, installing, then succeeded, failed or rolled back): synced, so every
 * screen shows the rollout live and offline.
 */

export const DEPLOYMENT_STATES = ['running', 'paused', 'halted', 'cancelled', 'done'] as const;
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];

/** The states a user moves a rollout to, from each (the others are the server's). */
export const DEPLOYMENT_MOVES: Readonly<Record<DeploymentState, readonly DeploymentState[]>> = {
  running: ['paused', 'cancelled'],
  paused: ['running', 'cancelled'],
  halted: ['running', 'cancelled'],
  cancelled: [],
  done: [],
};

export const GATEWAY_UPDATE_STATES = [
  'pending',
  'downloading',
  'installing',
  'succeeded',
  'failed',
  'rolled_back',
] as const;
export type GatewayUpdateState = (typeof GATEWAY_UPDATE_STATES)[number];

/** A gateway's part that is over: it no longer counts as under way. */
export const GATEWAY_UPDATE_ENDS: readonly GatewayUpdateState[] = [
  'succeeded',
  'failed',
  'rolled_back',
];

export const deploymentTargetsSchema = /* @__PURE__ */ deferred(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('list'),
      gateway_ids: z.array(idField).min(1, DEPLOYMENT_TEXTS.noGateways).max(5_000),
    }),
    z.strictObject({ kind: z.literal('tag'), tag: z.string().trim().min(1).max(100) }),
    z.strictObject({ kind: z.literal('all') }),
  ]),
);
export type DeploymentTargets = z.infer<typeof deploymentTargetsSchema>;

const counts = /* @__PURE__ */ deferred(() =>
  z.object(
    Object.fromEntries(GATEWAY_UPDATE_STATES.map((s) => [s, z.number().int().min(0)])) as Record<
      GatewayUpdateState,
      z.ZodNumber
    >,
  ),
);
export type DeploymentCounts = z.infer<typeof counts>;

export const deploymentAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    release_id: idField,
    targets: deploymentTargetsSchema,
    /** How many gateways update at once; the next batch starts when this one is over. */
    batch_size: z.number().int().min(1).max(1_000).default(10),
    /** The share of failed (or rolled back) gateways among those done that halts the rollout. */
    max_failure_rate: z.number().min(0).max(1).default(0.2),
    /**
     * Install only while the machine's stream of this name says `idle_value` (none: at once): no
     * machine is interrupted mid-cycle.
     */
    idle_stream: z.string().trim().max(250).nullable().default(null),
    idle_value: z
      .union([z.number().finite(), z.string().max(250)])
      .nullable()
      .default(null),
    /** Running until every gateway is done; the user pauses, resumes, cancels; the server halts. */
    state: z.enum(DEPLOYMENT_STATES).default('running'),
    /** The server's: why it halted, how many gateways are in each state, the batch under way. */
    reason: z.string().max(500).nullable().default(null),
    counts: counts.nullable().default(null),
    batch: z.number().int().min(0).default(0),
    created_by: z.string().nullable().default(null),
    created_at: z.number().int().nullable().default(null),
    changed_by: z.string().nullable().default(null),
    changed_at: z.number().int().nullable().default(null),
  }),
);
export type DeploymentAttributes = z.infer<typeof deploymentAttributesSchema>;

export const deploymentModel = {
  type: 'deployment',
  collection: 'deployments',
  parentType: 'release',
  parentField: 'release_id',
  attributes: deploymentAttributesSchema,
  refs: { release_id: 'release' },
  permissions: RELEASE_PERMISSIONS,
  sortField: 'created_at',
  fixed: ['release_id', 'targets', 'batch_size', 'max_failure_rate', 'idle_stream', 'idle_value'],
  serverFields: [
    'reason',
    'counts',
    'batch',
    'created_by',
    'created_at',
    'changed_by',
    'changed_at',
  ],
} as const satisfies ModelDefinition<'deployment', typeof deploymentAttributesSchema>;

/** One gateway's part of a rollout: the server's alone (clients read it). */
export const deploymentGatewayAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    deployment_id: idField,
    gateway_id: idField,
    /** Which batch it is in, from 0. */
    batch: z.number().int().min(0),
    state: z.enum(GATEWAY_UPDATE_STATES).default('pending'),
    /** The version it ran before, and what it reported last (a failure's words). */
    from_version: z.string().max(100).nullable().default(null),
    message: z.string().max(500).nullable().default(null),
    changed_at: z.number().int().nullable().default(null),
  }),
);
export type DeploymentGatewayAttributes = z.infer<typeof deploymentGatewayAttributesSchema>;

export const deploymentGatewayModel = {
  type: 'deployment_gateway',
  collection: 'deployment_gateways',
  parentType: 'deployment',
  parentField: 'deployment_id',
  attributes: deploymentGatewayAttributesSchema,
  refs: { deployment_id: 'deployment', gateway_id: 'gateway' },
  permissions: RELEASE_PERMISSIONS,
  sortField: 'batch',
  fixed: ['deployment_id', 'gateway_id', 'batch'],
} as const satisfies ModelDefinition<
  'deployment_gateway',
  typeof deploymentGatewayAttributesSchema
>;

/** A rollout's counts of its gateways' parts by state. */
export function countStates(states: readonly GatewayUpdateState[]): DeploymentCounts {
  const counted = Object.fromEntries(GATEWAY_UPDATE_STATES.map((s) => [s, 0])) as DeploymentCounts;
  for (const s of states) counted[s] += 1;
  return counted;
}

/**
 * Whether the rollout's failures pass its limit: failed and rolled back among the gateways done,
 * once at least one is done.
 */
export function failuresPassLimit(counted: DeploymentCounts, maxFailureRate: number): boolean {
  const failed = counted.failed + counted.rolled_back;
  const done = failed + counted.succeeded;
  return done > 0 && failed / done > maxFailureRate;
}
