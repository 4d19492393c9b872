import {
  FEEDBACK_PERMISSIONS,
  TICKET_PROGRESS_WORDS,
  TICKET_TEXTS,
  ticketAttributesSchema,
  uuidv7,
  ticketChangeProblems,
  ticketRolesOf,
  ticketMessageModel,
  ticketModel,
  ticketVoteModel,
  type TicketAttributes,
  type TicketMessageAttributes,
  type TicketRole,
  type TicketVoteAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import { UserRepository } from '../repositories/user.repository';
import type { AccessDecision } from '../services/access-decision';
import { DomainError, invalidInput, notFound } from '../services/domain-error';
import type { NewModel } from '../services/new-model';

/*
 * The feedback centre's rules on the generic model writes (issue 34, DESIGN.md §14), called by
 * the model transaction inside its database transaction: who may change what of a ticket is
 * shared-schema's table (TICKET_MOVES, TICKET_FIELD_RULES), decided here by the STORED ticket
 * (its stored reporter and assignee) and the writer's permissions in the account.
 */

export const FEEDBACK_TYPES: ReadonlySet<string> = new Set([
  ticketModel.type,
  ticketMessageModel.type,
  ticketVoteModel.type,
]);

/** What the writer is to the ticket; the server's own writes (no access) are every role. */
export function ticketRoles(
  ticket: Pick<TicketAttributes, 'reported_by' | 'assigned_to' | 'technical'>,
  access: AccessDecision | undefined,
): Set<TicketRole> {
  if (access === undefined) return new Set(['reporter', 'assignee', 'admin', 'developer']);
  return ticketRolesOf(ticket, access.userId, (p) => access.permits(p));
}

/** A change the table does not allow this writer: 403 with the fields, else 422 for a need. */
async function refuseChange(
  trx: Db,
  accountId: string,
  before: TicketAttributes,
  after: TicketAttributes,
  changed: readonly string[],
  roles: ReadonlySet<TicketRole>,
): Promise<void> {
  const { forbidden, needs } = ticketChangeProblems({ before, after, changed }, roles);
  if (Object.keys(forbidden).length > 0) {
    const first = Object.values(forbidden)[0]?.[0] ?? TICKET_TEXTS.moveNotYours;
    throw new DomainError('forbidden', first, { fields: forbidden });
  }
  if (
    changed.includes('assigned_to') &&
    after.assigned_to !== null &&
    !(await new UserRepository(trx).isMember(accountId, after.assigned_to))
  )
    needs.assigned_to = [TICKET_TEXTS.assigneeNotMember];
  if (Object.keys(needs).length > 0) throw invalidInput(needs);
}

/** The fields a write changed between two states of a ticket. */
function changedFields(before: TicketAttributes, after: TicketAttributes): string[] {
  return (Object.keys(after) as (keyof TicketAttributes)[]).filter(
    (k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]),
  );
}

/**
 * A new ticket, message or vote: the server's fields stamped (who and when), and the table's
 * check of a ticket as a change from a fresh report by its writer (a reporter files it `new`; an
 * admin may file it approved at once).
 */
export async function feedbackCreate({
  trx,
  accountId,
  type,
  attributes,
  access,
  asServer,
  now,
}: NewModel): Promise<void> {
  const user = access?.userId ?? null;
  if (type === ticketModel.type) {
    const ticket = attributes as TicketAttributes;
    if (!asServer || ticket.reported_by === null) ticket.reported_by = user;
    ticket.reported_at = now;
    ticket.changed_at = now;
    const fresh = ticketAttributesSchema.parse({
      kind: ticket.kind,
      board: ticket.board,
      title: ticket.title,
      description: ticket.description,
      importance: ticket.importance,
      reported_by: ticket.reported_by,
      reported_at: now,
      changed_at: now,
    });
    const roles = ticketRoles(ticket, access);
    roles.add('reporter');
    await refuseChange(trx, accountId, fresh, ticket, changedFields(fresh, ticket), roles);
    return;
  }
  if (type === ticketMessageModel.type) {
    // Its ticket is checked as the registry's reference (and read again by afterMessage).
    const message = attributes as TicketMessageAttributes;
    if (!asServer || message.author_id === null) message.author_id = user;
    message.at = now;
    return;
  }
  if (type === ticketVoteModel.type) {
    const stored = await storedTicket(
      trx,
      accountId,
      (attributes as { ticket_id: string }).ticket_id,
    );
    const vote = attributes as TicketVoteAttributes;
    if (!asServer || vote.user_id === null) vote.user_id = user;
    vote.at = now;
    if (stored.attributes.kind !== 'feature')
      throw invalidInput({ ticket_id: [TICKET_TEXTS.votesOfFeatures] });
    const votes = await new ModelRepository(trx).children(accountId, ticketModel.type, stored.id);
    const twice = votes.some(
      (row) =>
        row.type === ticketVoteModel.type &&
        (JSON.parse(row.attributes) as TicketVoteAttributes).user_id === vote.user_id,
    );
    if (twice) throw new DomainError('conflict', TICKET_TEXTS.votedAlready);
  }
}

/**
 * What follows a new message: the reporter's answer to an answered ticket makes it `responded`
 * (the table's move, made by the server for the reporter). Answers the ticket's row and patch.
 */
export async function afterMessage(
  trx: Db,
  accountId: string,
  message: TicketMessageAttributes,
  now: number,
): Promise<{ readonly row: ModelRow; readonly patch: Partial<TicketAttributes> } | undefined> {
  const { row, attributes } = await storedTicket(trx, accountId, message.ticket_id);
  if (attributes.state !== 'answered' || message.author_id === null) return undefined;
  if (attributes.reported_by !== message.author_id) return undefined;
  return { row, patch: { state: 'responded', changed_at: now } };
}

/** An update of a ticket: the table decides by the stored ticket; its change time stamped. */
export async function ticketUpdate(
  trx: Db,
  accountId: string,
  before: TicketAttributes,
  after: TicketAttributes,
  changed: readonly string[],
  access: AccessDecision | undefined,
  now: number,
): Promise<void> {
  await refuseChange(trx, accountId, before, after, changed, ticketRoles(before, access));
  after.changed_at = now;
}

/**
 * What the reporter is told by mail of this change (ticket-notices.ts sends it): an answer, a
 * decline with its answer, a progress step; noted in the change's transaction (an outbox), and
 * not when the reporter made the change.
 */
export async function noteTicketSteps(
  trx: Db,
  accountId: string,
  id: string,
  before: TicketAttributes,
  after: TicketAttributes,
  changed: readonly string[],
  writer: string | null,
  now: number,
): Promise<void> {
  const reporter = after.reported_by;
  if (reporter === null || reporter === writer) return;
  const notices: { kind: 'answered' | 'declined' | 'progress'; body: string }[] = [];
  if (changed.includes('state') && (after.state === 'answered' || after.state === 'declined'))
    notices.push({ kind: after.state, body: after.answer });
  if (changed.includes('progress') && after.progress !== before.progress)
    notices.push({ kind: 'progress', body: TICKET_PROGRESS_WORDS[after.progress] });
  if (notices.length === 0) return;
  await trx
    .insertInto('ticket_notices')
    .values(
      notices.map((n) => ({
        id: uuidv7(now),
        account_id: accountId,
        ticket_id: id,
        user_id: reporter,
        kind: n.kind,
        title: after.title,
        body: n.body,
        created_at: now,
        sent_at: null,
        attempts: 0,
        retry_at: null,
        lease_until: null,
        error: null,
      })),
    )
    .execute();
}

/** Deleting a vote: one's own (an admin removes any; messages and tickets are the admins'). */
export function mayRemoveFeedback(
  type: string,
  stored: Record<string, unknown>,
  access: AccessDecision | undefined,
): void {
  if (type !== ticketVoteModel.type || access === undefined) return;
  if ((stored as TicketVoteAttributes).user_id === access.userId) return;
  if (access.permits(FEEDBACK_PERMISSIONS.admin)) return;
  throw new DomainError('forbidden', TICKET_TEXTS.voteNotYours);
}

/**
 * Adding, changing or removing a ticket's photo (a file under it): by the stored ticket, its
 * reporter while it is new, a feedback admin at any time; who does not see tickets never finds
 * the ticket (404).
 */
export async function mayChangeTicketPhoto(
  trx: Db,
  accountId: string,
  ticketId: string,
  access: AccessDecision,
): Promise<void> {
  if (!access.types.has(ticketModel.type)) throw notFound('Ticket');
  const { attributes } = await storedTicket(trx, accountId, ticketId);
  const roles = ticketRoles(attributes, access);
  if (roles.has('admin')) return;
  if (roles.has('reporter') && attributes.state === 'new') return;
  throw new DomainError('forbidden', TICKET_TEXTS.photoNotYours);
}

async function storedTicket(
  trx: Db,
  accountId: string,
  id: string,
): Promise<{ readonly id: string; readonly row: ModelRow; readonly attributes: TicketAttributes }> {
  const row = await new ModelRepository(trx).find(accountId, ticketModel.type, id);
  if (row === undefined) throw notFound('Ticket');
  return { id, row, attributes: JSON.parse(row.attributes) as TicketAttributes };
}
