import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { TICKET_TEXTS } from './ticket-texts';

/**
 * The feedback centre (DESIGN.md §14, issue 34, spec 001 §3 and §4): problems and feature requests
 * on three boards, with messages and votes. Who may move a ticket from which state to which, and
 * who may change which of its fields, is THE table below: the server enforces it on every write
 * (server/src/feedback/ticket-rules.ts), the screens offer only what it allows.
 *
 * - `ticket`: the problem or the feature request itself, in the account it was reported in.
 * - `ticket_message`: one message under a ticket (its author and time the server's).
 * - `ticket_vote`: one user's vote for a feature request (one per user and ticket).
 */

export { TICKET_TEXTS } from './ticket-texts';

export const TICKET_KINDS = ['problem', 'feature'] as const;
export type TicketKind = (typeof TICKET_KINDS)[number];

/** The boards of spec 000 §2's /app/feedback screens. */
export const TICKET_BOARDS = ['platform', 'hardware', 'operations'] as const;
export type TicketBoard = (typeof TICKET_BOARDS)[number];

/** Spec 001 §3: a problem's importance, in the spec's words. */
export const TICKET_IMPORTANCE = ['Low', 'Medium', 'Critical', 'Emergency'] as const;
export type TicketImportance = (typeof TICKET_IMPORTANCE)[number];

/**
 * Spec 001 §4's states ("new, pending, answered, responded, not responded, declined, closed,
 * assigned, not assigned"), as one lifecycle:
 * - `new`: reported, waiting for an admin to approve or decline it;
 * - `not_assigned` / `assigned`: approved, with nobody or somebody working on it;
 * - `pending`: work waits on something outside (the development team, a part);
 * - `answered`: the reporter was answered (`answer`) and is asked to respond;
 * - `responded` / `not_responded`: the reporter did (a message) or did not;
 * - `declined`: an admin declined it, with an answer to the reporter;
 * - `closed`: done.
 */
export const TICKET_STATES = [
  'new',
  'not_assigned',
  'assigned',
  'pending',
  'answered',
  'responded',
  'not_responded',
  'declined',
  'closed',
] as const;
export type TicketState = (typeof TICKET_STATES)[number];

/** Spec 001 §4's message progress, in order; the reporter is told of every step. */
export const TICKET_PROGRESS = [
  'received',
  'being_worked_on',
  'shipped_next_release',
  'fixed',
] as const;
export type TicketProgress = (typeof TICKET_PROGRESS)[number];

/** The progress steps in spec 001 §4's words (English: the mails; the screens translate). */
export const TICKET_PROGRESS_WORDS: Record<TicketProgress, string> = {
  received: 'Received',
  being_worked_on: 'Being worked on',
  shipped_next_release: 'Tested internally and shipped with the next release',
  fixed: 'Fixed',
};

/** Spec 001 §4: the one feature status seen. */
export const FEATURE_STATUSES = ['selected_for_development'] as const;
export type FeatureStatus = (typeof FEATURE_STATUSES)[number];

/**
 * Who a writer is to one ticket (several at once: an admin may have reported it):
 * - `reporter`: who reported it (`reported_by`);
 * - `assignee`: who it is assigned to (`assigned_to`);
 * - `admin`: who holds feedback::admin in the ticket's account (spec 001 §6: the feedback admin
 *   section is for admins);
 * - `developer`: who holds feedback::develop, for a ticket marked technical (the development
 *   team's work on it is its progress).
 */
export const TICKET_ROLES = ['reporter', 'assignee', 'admin', 'developer'] as const;
export type TicketRole = (typeof TICKET_ROLES)[number];

/** The permissions of the feedback centre (the admins' and the development team's besides). */
export const FEEDBACK_PERMISSIONS = {
  view: 'feedback::view',
  admin: 'feedback::admin',
  develop: 'feedback::develop',
} as const;

/** What a move needs besides the writer's role: an answer to the reporter, or an assignee. */
export type MoveNeed = 'answer' | 'assignee' | 'no_assignee';

/** The words of the moves' buttons (English source; the client translates each). */
export const TICKET_ACTIONS = [
  'Approve',
  'Approve and assign',
  'Decline',
  'Withdraw',
  'Assign',
  'Unassign',
  'Answer',
  'Put on hold',
  'Resume',
  'Respond',
  'Mark as not responded',
  'Close',
  'Reopen',
] as const;
export type TicketAction = (typeof TICKET_ACTIONS)[number];

export interface TicketMove {
  readonly from: TicketState;
  readonly to: TicketState;
  readonly by: readonly TicketRole[];
  readonly needs?: MoveNeed;
  /** The words of the button that makes it. */
  readonly action: TicketAction;
}

const STAFF: readonly TicketRole[] = ['admin', 'assignee'];
const WORKING: readonly TicketState[] = [
  'not_assigned',
  'assigned',
  'pending',
  'answered',
  'responded',
  'not_responded',
];

/** The states in which the assignee may change without a move. */
const REASSIGNABLE: readonly TicketState[] = ['pending', 'answered', 'responded', 'not_responded'];

/**
 * THE table of state changes: from, to, who may, and what it needs. Any change not in it is
 * refused. An admin approves (new → not_assigned or assigned) or declines (with an answer) a
 * reported ticket; the reporter may withdraw one not yet approved; whoever works on it answers,
 * waits, closes; the reporter's message on an answered ticket makes it `responded` (the server
 * does that move for it), and the reporter may close an answered ticket.
 */
export const TICKET_MOVES: readonly TicketMove[] = [
  { from: 'new', to: 'not_assigned', by: ['admin'], needs: 'no_assignee', action: 'Approve' },
  { from: 'new', to: 'assigned', by: ['admin'], needs: 'assignee', action: 'Approve and assign' },
  { from: 'new', to: 'declined', by: ['admin'], needs: 'answer', action: 'Decline' },
  { from: 'new', to: 'closed', by: ['reporter'], action: 'Withdraw' },
  { from: 'not_assigned', to: 'assigned', by: ['admin'], needs: 'assignee', action: 'Assign' },
  { from: 'assigned', to: 'not_assigned', by: ['admin'], needs: 'no_assignee', action: 'Unassign' },
  { from: 'not_assigned', to: 'answered', by: ['admin'], needs: 'answer', action: 'Answer' },
  { from: 'assigned', to: 'answered', by: STAFF, needs: 'answer', action: 'Answer' },
  { from: 'assigned', to: 'pending', by: STAFF, action: 'Put on hold' },
  { from: 'pending', to: 'assigned', by: STAFF, needs: 'assignee', action: 'Resume' },
  { from: 'pending', to: 'answered', by: STAFF, needs: 'answer', action: 'Answer' },
  { from: 'answered', to: 'responded', by: ['reporter'], action: 'Respond' },
  { from: 'answered', to: 'not_responded', by: STAFF, action: 'Mark as not responded' },
  { from: 'responded', to: 'assigned', by: STAFF, needs: 'assignee', action: 'Resume' },
  { from: 'responded', to: 'answered', by: STAFF, needs: 'answer', action: 'Answer' },
  { from: 'not_responded', to: 'answered', by: STAFF, needs: 'answer', action: 'Answer' },
  // Whoever works on it closes it; the reporter closes an answered one (satisfied).
  ...WORKING.map((from): TicketMove => ({
    from,
    to: 'closed',
    by: from === 'answered' ? [...STAFF, 'reporter'] : STAFF,
    action: 'Close',
  })),
  { from: 'declined', to: 'closed', by: ['admin'], action: 'Close' },
  { from: 'closed', to: 'not_assigned', by: ['admin'], needs: 'no_assignee', action: 'Reopen' },
];

/** The fields of a ticket (besides its state) and who may change each. */
export const TICKET_FIELD_RULES = {
  /** The report itself: its reporter while it is new, an admin at any time. */
  title: { by: ['admin'], reporterWhileNew: true },
  description: { by: ['admin'], reporterWhileNew: true },
  importance: { by: ['admin'], reporterWhileNew: true },
  board: { by: ['admin'], reporterWhileNew: true },
  assigned_to: { by: ['admin'], reporterWhileNew: false },
  technical: { by: ['admin'], reporterWhileNew: false },
  answer: { by: ['admin', 'assignee'], reporterWhileNew: false },
  progress: { by: ['admin', 'assignee', 'developer'], reporterWhileNew: false },
  feature_status: { by: ['admin'], reporterWhileNew: false },
} as const satisfies Record<
  string,
  { readonly by: readonly TicketRole[]; readonly reporterWhileNew: boolean }
>;
export type TicketField = keyof typeof TICKET_FIELD_RULES;

/**
 * What a user is to a ticket, by the ticket as stored and the user's permissions in its account:
 * the server decides by it, the screens offer by it.
 */
export function ticketRolesOf(
  ticket: Pick<TicketAttributes, 'reported_by' | 'assigned_to' | 'technical'>,
  userId: string | null,
  permits: (permission: string) => boolean,
): Set<TicketRole> {
  const roles = new Set<TicketRole>();
  if (userId !== null && ticket.reported_by === userId) roles.add('reporter');
  if (userId !== null && ticket.assigned_to === userId) roles.add('assignee');
  if (permits(FEEDBACK_PERMISSIONS.admin)) roles.add('admin');
  if (ticket.technical && permits(FEEDBACK_PERMISSIONS.develop)) roles.add('developer');
  return roles;
}

/** The moves a writer in these roles may make from a state (the screens' buttons). */
export function ticketMovesFrom(
  state: TicketState,
  roles: ReadonlySet<TicketRole>,
): readonly TicketMove[] {
  return TICKET_MOVES.filter((m) => m.from === state && m.by.some((r) => roles.has(r)));
}

/** The move from one state to another, if the table has it. */
export function ticketMove(from: TicketState, to: TicketState): TicketMove | undefined {
  return TICKET_MOVES.find((m) => m.from === from && m.to === to);
}

/** Whether a writer in these roles may change the field of a ticket in this state. */
export function mayChangeTicketField(
  field: TicketField,
  state: TicketState,
  roles: ReadonlySet<TicketRole>,
): boolean {
  const rule = TICKET_FIELD_RULES[field];
  if ((rule.by as readonly TicketRole[]).some((r) => roles.has(r))) return true;
  return rule.reporterWhileNew && state === 'new' && roles.has('reporter');
}

export interface TicketChange {
  readonly before: TicketAttributes;
  readonly after: TicketAttributes;
  /** The fields the write changed. */
  readonly changed: readonly string[];
}

/**
 * Why a write of a ticket may not be made by a writer in these roles, per field (empty: it may):
 * each changed field must be one its roles may change, a state change must be in TICKET_MOVES
 * for one of its roles, and the move's need must hold after the write. The server answers 403
 * for a field or move the writer may not make, 422 for a need not met (`needs`).
 */
export function ticketChangeProblems(
  change: TicketChange,
  roles: ReadonlySet<TicketRole>,
): { readonly forbidden: Record<string, string[]>; readonly needs: Record<string, string[]> } {
  const { before, after } = change;
  const forbidden: Record<string, string[]> = {};
  const needs: Record<string, string[]> = {};
  for (const field of change.changed) {
    if (field === 'state') continue;
    if (!(field in TICKET_FIELD_RULES)) continue;
    if (!mayChangeTicketField(field as TicketField, before.state, roles))
      forbidden[field] = [TICKET_TEXTS.fieldNotYours];
  }
  if (change.changed.includes('progress') && after.kind !== 'problem')
    needs.progress = [TICKET_TEXTS.progressOfProblems];
  if (change.changed.includes('feature_status') && after.kind !== 'feature')
    needs.feature_status = [TICKET_TEXTS.statusOfFeatures];
  if (change.changed.includes('state')) {
    const move = ticketMove(before.state, after.state);
    if (move === undefined || !move.by.some((r) => roles.has(r)))
      forbidden.state = [TICKET_TEXTS.moveNotYours];
    else if (move.needs === 'answer' && after.answer.trim() === '')
      needs.answer = [TICKET_TEXTS.answerRequired];
    else if (move.needs === 'assignee' && after.assigned_to === null)
      needs.assigned_to = [TICKET_TEXTS.assigneeRequired];
    else if (move.needs === 'no_assignee' && after.assigned_to !== null)
      needs.assigned_to = [TICKET_TEXTS.assigneeLeft];
  } else if (change.changed.includes('assigned_to')) {
    // Assigning is the move to `assigned` and back (approve, assign, unassign); once worked on,
    // a ticket may pass to someone else, and an assigned one keeps somebody.
    const free = REASSIGNABLE.includes(before.state);
    const keepsSomebody = before.state === 'assigned' && after.assigned_to !== null;
    if (!free && !keepsSomebody) needs.assigned_to = [TICKET_TEXTS.assignWithMove];
  }
  return { forbidden, needs };
}

const trimmed = (max: number, required: string) =>
  z.string({ error: required }).trim().min(1, required).max(max);

/**
 * A ticket. Its optional picture (DESIGN.md §14's `image`) is a `file` under it (the file's
 * `ticket_id`, uploaded through the file path like an asset's photo, offline too): who sees the
 * ticket sees it; its reporter adds one while the ticket is new, an admin at any time.
 */
export const ticketAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    kind: z.enum(TICKET_KINDS),
    board: z.enum(TICKET_BOARDS).default('platform'),
    title: trimmed(200, TICKET_TEXTS.titleRequired),
    description: trimmed(10_000, TICKET_TEXTS.descriptionRequired),
    importance: z.enum(TICKET_IMPORTANCE).default('Medium'),
    state: z.enum(TICKET_STATES).default('new'),
    /** A member of the account (user id), or nobody. */
    assigned_to: idField.nullable().default(null),
    /** A technical problem: forwarded to the development team of the root account. */
    technical: z.boolean().default(false),
    /** The text a decline or an answer sends to the reporter. */
    answer: z.string().trim().max(10_000).default(''),
    progress: z.enum(TICKET_PROGRESS).default('received'),
    feature_status: z.enum(FEATURE_STATUSES).nullable().default(null),
    /**
     * The server's, for a technical problem of a customer's account: the copy the development team
     * of the root account works on (`forwarded_to`, its id there), and on that copy the ticket it
     * stands for (`forwarded_from`). The copy's progress is the original's.
     */
    forwarded_to: z.string().nullable().default(null),
    forwarded_from: z
      .object({ account_id: z.string(), ticket_id: z.string() })
      .nullable()
      .default(null),
    /** The server's: who reported it and when, and when it last changed. */
    reported_by: z.string().nullable().default(null),
    reported_at: z.number().int().nullable().default(null),
    changed_at: z.number().int().nullable().default(null),
  }),
);
export type TicketAttributes = z.output<typeof ticketAttributesSchema>;

export const ticketModel = {
  type: 'ticket',
  collection: 'tickets',
  parentType: 'account',
  attributes: ticketAttributesSchema,
  // Who sees the feedback centre reports, votes and writes messages; what else one may change
  // is the table's (TICKET_MOVES, TICKET_FIELD_RULES); deleting is the admins'.
  permissions: {
    view: FEEDBACK_PERMISSIONS.view,
    create: FEEDBACK_PERMISSIONS.view,
    update: FEEDBACK_PERMISSIONS.view,
    delete: FEEDBACK_PERMISSIONS.admin,
  },
  sortField: 'reported_at',
  fixed: ['kind'],
  serverFields: ['reported_by', 'reported_at', 'changed_at', 'forwarded_to', 'forwarded_from'],
} as const satisfies ModelDefinition<'ticket', typeof ticketAttributesSchema>;

const messageAttributes = /* @__PURE__ */ deferred(() =>
  z.object({
    ticket_id: idField,
    text: trimmed(4000, TICKET_TEXTS.messageRequired),
    author_id: z.string().nullable().default(null),
    at: z.number().int().nullable().default(null),
  }),
);
export type TicketMessageAttributes = z.output<typeof messageAttributes>;

export const ticketMessageModel = {
  type: 'ticket_message',
  collection: 'ticket_messages',
  parentType: 'ticket',
  parentField: 'ticket_id',
  attributes: messageAttributes,
  refs: { ticket_id: 'ticket' },
  // Written by who sees the ticket; a message once sent stays as it was (only an admin removes).
  permissions: {
    view: FEEDBACK_PERMISSIONS.view,
    create: FEEDBACK_PERMISSIONS.view,
    update: FEEDBACK_PERMISSIONS.admin,
    delete: FEEDBACK_PERMISSIONS.admin,
  },
  sortField: 'at',
  fixed: ['ticket_id', 'text'],
  serverFields: ['author_id', 'at'],
} as const satisfies ModelDefinition<'ticket_message', typeof messageAttributes>;

const voteAttributes = /* @__PURE__ */ deferred(() =>
  z.object({
    ticket_id: idField,
    user_id: z.string().nullable().default(null),
    at: z.number().int().nullable().default(null),
  }),
);
export type TicketVoteAttributes = z.output<typeof voteAttributes>;

export const ticketVoteModel = {
  type: 'ticket_vote',
  collection: 'ticket_votes',
  parentType: 'ticket',
  parentField: 'ticket_id',
  attributes: voteAttributes,
  refs: { ticket_id: 'ticket' },
  // One's own vote is given and taken back by oneself (the server checks whose it is).
  permissions: {
    view: FEEDBACK_PERMISSIONS.view,
    create: FEEDBACK_PERMISSIONS.view,
    update: FEEDBACK_PERMISSIONS.admin,
    delete: FEEDBACK_PERMISSIONS.view,
  },
  sortField: 'at',
  fixed: ['ticket_id'],
  serverFields: ['user_id', 'at'],
} as const satisfies ModelDefinition<'ticket_vote', typeof voteAttributes>;
