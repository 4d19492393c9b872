import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from '../api/fields';
import { DATASTREAM_TYPES } from './datastream';
import type { ModelDefinition } from './registry-types';
import { SERVICE_REQUEST_TEXTS } from './service-request-texts';

/*
 * Service requests (issue 34 item 2, DESIGN.md §14, spec 001 §2): a customer asks the machine
 * builder's service for help with one machine (the request's asset). With the reporter's consent
 * the server attaches the machine's context when the request reaches it: the asset, its active
 * alarms, its latest values, its gateway's agent version. The agent it is assigned to sees that
 * asset, and only while the request is open (the server's `service_access`).
 */

export const SERVICE_REQUEST_STATES = [
  'open',
  'assigned',
  'in_progress',
  'resolved',
  'closed',
] as const;
export type ServiceRequestState = (typeof SERVICE_REQUEST_STATES)[number];

/** The states of an active request (the active list; its agent sees its asset). */
export const ACTIVE_SERVICE_STATES: readonly ServiceRequestState[] = [
  'open',
  'assigned',
  'in_progress',
];

/** The permissions of service requests: who asks, who assigns, who answers (agents). */
export const SERVICE_PERMISSIONS = {
  view: 'servicerequest::view',
  admin: 'servicerequest::admin',
  agent: 'servicerequest::agent',
} as const;

/**
 * Who a writer is to one request: its reporter, its assigned agent, a service admin (who holds
 * servicerequest::admin in its account).
 */
export const SERVICE_ROLES = ['reporter', 'agent', 'admin'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

/** The words of the moves' buttons (English source; the client translates each). */
export const SERVICE_ACTIONS = [
  'Assign',
  'Unassign',
  'Start work',
  'Mark as resolved',
  'Not solved',
  'Close',
  'Withdraw',
] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

export interface ServiceMove {
  readonly from: ServiceRequestState;
  readonly to: ServiceRequestState;
  readonly by: readonly ServiceRole[];
  /** An assigned agent (assign, start), or none (unassign). */
  readonly needs?: 'assignee' | 'no_assignee';
  readonly action: ServiceAction;
}

/**
 * THE table of a request's state changes; any other is refused. An admin assigns an agent (the
 * server does, too, when a call finds a free agent for an open request); the agent works on it
 * and resolves it; the reporter closes it, or says it is not solved; the reporter withdraws an
 * active one, an admin closes any.
 */
export const SERVICE_MOVES: readonly ServiceMove[] = [
  { from: 'open', to: 'assigned', by: ['admin'], needs: 'assignee', action: 'Assign' },
  { from: 'assigned', to: 'open', by: ['admin'], needs: 'no_assignee', action: 'Unassign' },
  { from: 'assigned', to: 'in_progress', by: ['agent', 'admin'], action: 'Start work' },
  { from: 'in_progress', to: 'resolved', by: ['agent', 'admin'], action: 'Mark as resolved' },
  { from: 'resolved', to: 'in_progress', by: ['reporter', 'admin'], action: 'Not solved' },
  { from: 'resolved', to: 'closed', by: ['reporter', 'admin'], action: 'Close' },
  ...ACTIVE_SERVICE_STATES.map((from): ServiceMove => ({
    from,
    to: 'closed',
    by: ['reporter'],
    action: 'Withdraw',
  })),
  ...ACTIVE_SERVICE_STATES.map((from): ServiceMove => ({
    from,
    to: 'closed',
    by: ['admin'],
    action: 'Close',
  })),
];

/** What a user is to a request, by the request as stored and the user's permissions. */
export function serviceRolesOf(
  request: Pick<ServiceRequestAttributes, 'reported_by' | 'assigned_to'>,
  userId: string | null,
  permits: (permission: string) => boolean,
): Set<ServiceRole> {
  const roles = new Set<ServiceRole>();
  if (userId !== null && request.reported_by === userId) roles.add('reporter');
  if (userId !== null && request.assigned_to === userId) roles.add('agent');
  if (permits(SERVICE_PERMISSIONS.admin)) roles.add('admin');
  return roles;
}

/** The moves a writer in these roles may make from a state (the screens' buttons). */
export function serviceMovesFrom(
  state: ServiceRequestState,
  roles: ReadonlySet<ServiceRole>,
): readonly ServiceMove[] {
  return SERVICE_MOVES.filter((m) => m.from === state && m.by.some((r) => roles.has(r)));
}

/**
 * What is wrong with a change of a request by a writer in these roles: `forbidden` (403) for a
 * move or a field not the writer's, `needs` (422) for a move whose need is not met. The report
 * itself (title, description) is its reporter's while open and an admin's; the assignee changes
 * with the assign and unassign moves only.
 */
export function serviceChangeProblems(
  change: {
    readonly before: ServiceRequestAttributes;
    readonly after: ServiceRequestAttributes;
    readonly changed: readonly string[];
  },
  roles: ReadonlySet<ServiceRole>,
): { forbidden: Record<string, string[]>; needs: Record<string, string[]> } {
  const { before, after, changed } = change;
  const forbidden: Record<string, string[]> = {};
  const needs: Record<string, string[]> = {};
  if (changed.includes('state')) {
    const move = SERVICE_MOVES.find(
      (m) => m.from === before.state && m.to === after.state && m.by.some((r) => roles.has(r)),
    );
    if (move === undefined) forbidden.state = [SERVICE_REQUEST_TEXTS.moveNotYours];
    else if (move.needs === 'assignee' && after.assigned_to === null)
      needs.assigned_to = [SERVICE_REQUEST_TEXTS.assigneeRequired];
    else if (move.needs === 'no_assignee' && after.assigned_to !== null)
      needs.assigned_to = [SERVICE_REQUEST_TEXTS.assigneeLeft];
  } else if (changed.includes('assigned_to')) {
    forbidden.assigned_to = [SERVICE_REQUEST_TEXTS.assignWithMove];
  }
  for (const field of ['title', 'description'] as const) {
    if (!changed.includes(field)) continue;
    const may = roles.has('admin') || (roles.has('reporter') && before.state === 'open');
    if (!may) forbidden[field] = [SERVICE_REQUEST_TEXTS.fieldNotYours];
  }
  return { forbidden, needs };
}

/** The machine's context, taken by the server when the request reached it (with consent). */
export const machineContextSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    taken_at: z.number().int(),
    asset: z.object({ id: z.string(), name: z.string() }),
    alarms: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        state: z.string(),
        since: z.number().nullable(),
      }),
    ),
    values: z.array(
      z.object({
        stream_id: z.string(),
        name: z.string(),
        unit: z.string(),
        value: z.union([z.number(), z.string()]),
        ts: z.number(),
        /**
         * The stream's kind and state texts then: a state or an on/off reads as its word. Absent
         * in contexts taken before 2026-12-07 (read as a number without texts).
         */
        type: z.enum(DATASTREAM_TYPES).optional(),
        state_texts: z.record(z.string(), z.string()).optional(),
      }),
    ),
    /** The gateway agent's version the machine's gateway last reported; null without one. */
    agent_version: z.string().nullable(),
  }),
);
export type MachineContext = z.output<typeof machineContextSchema>;

/** At most this many latest values go into a context (the first streams by name). */
export const CONTEXT_MAX_VALUES = 50;

/** One call of a request (item 3): who took part, when it began and ended. */
export const serviceCallSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    kind: z.enum(['video', 'screen']),
    started_at: z.number().int(),
    ended_at: z.number().int().nullable(),
    /** Who took part, named as the server knew them (a reporter may not list users). */
    participants: z.array(z.object({ user_id: z.string(), name: z.string() })).max(10),
  }),
);
export type ServiceCall = z.output<typeof serviceCallSchema>;

const trimmed = (max: number, required: string) =>
  z.string({ error: required }).trim().min(1, required).max(max);

export const serviceRequestAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    asset_id: idField,
    title: trimmed(200, SERVICE_REQUEST_TEXTS.titleRequired),
    description: trimmed(10_000, SERVICE_REQUEST_TEXTS.descriptionRequired),
    state: z.enum(SERVICE_REQUEST_STATES).default('open'),
    /** The agent (a member of the account), or nobody. */
    assigned_to: idField.nullable().default(null),
    /** The agent's name, as the server knew it at the assignment (a reporter may not list users). */
    agent_name: z.string().max(200).nullable().default(null),
    /** Whether the reporter agreed to send the machine's context with the request. */
    consent: z.boolean().default(false),
    context: machineContextSchema.nullable().default(null),
    reported_by: z.string().nullable().default(null),
    reported_at: z.number().int().nullable().default(null),
    changed_at: z.number().int().nullable().default(null),
    calls: z.array(serviceCallSchema).max(200).default([]),
  }),
);
export type ServiceRequestAttributes = z.output<typeof serviceRequestAttributesSchema>;

export const serviceRequestModel = {
  type: 'service_request',
  collection: 'service_requests',
  parentType: 'asset',
  parentField: 'asset_id',
  attributes: serviceRequestAttributesSchema,
  refs: { asset_id: 'asset' },
  // Who may view it asks for service on a machine it sees; the moves are the table's
  // (SERVICE_MOVES, the server decides by the stored request); deleting is the admins'.
  permissions: {
    view: SERVICE_PERMISSIONS.view,
    create: SERVICE_PERMISSIONS.view,
    update: SERVICE_PERMISSIONS.view,
    delete: SERVICE_PERMISSIONS.admin,
  },
  sortField: 'reported_at',
  fixed: ['asset_id', 'consent'],
  serverFields: ['context', 'agent_name', 'reported_by', 'reported_at', 'changed_at', 'calls'],
  asset: 'asset_id',
} as const satisfies ModelDefinition<'service_request', typeof serviceRequestAttributesSchema>;
