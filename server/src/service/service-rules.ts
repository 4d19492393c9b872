import {
  ACTIVE_SERVICE_STATES,
  personName,
  SERVICE_PERMISSIONS,
  SERVICE_REQUEST_TEXTS,
  serviceChangeProblems,
  serviceRequestAttributesSchema,
  serviceRequestModel,
  serviceRolesOf,
  type ServiceRequestAttributes,
  type ServiceRole,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { scopeTo } from '../repositories/account-scope';
import { UserRepository } from '../repositories/user.repository';
import type { AccessDecision } from '../services/access-decision';
import { DomainError, invalidInput } from '../services/domain-error';
import type { NewModel } from '../services/new-model';

/*
 * Service requests' rules on the generic model writes (issue 34 item 2, DESIGN.md §14), called
 * by the model transaction inside its database transaction: the state table of shared-schema
 * (SERVICE_MOVES) decided by the STORED request and the writer's permissions; the machine's
 * context taken when a request with consent reaches the server; and `service_access`, the row
 * that lets the assigned agent see the request's asset while the request is active.
 */

/** What the server reads of a machine for a request's context (machine-context.ts). */
export type { MachineContextSource } from '../services/new-model';

/** What the writer is to the request; the server's own writes are every role. */
function serviceRoles(
  request: Pick<ServiceRequestAttributes, 'reported_by' | 'assigned_to'>,
  access: AccessDecision | undefined,
): Set<ServiceRole> {
  if (access === undefined) return new Set(['reporter', 'agent', 'admin']);
  return serviceRolesOf(request, access.userId, (p) => access.permits(p));
}

async function refuseChange(
  trx: Db,
  accountId: string,
  before: ServiceRequestAttributes,
  after: ServiceRequestAttributes,
  changed: readonly string[],
  roles: ReadonlySet<ServiceRole>,
): Promise<void> {
  const { forbidden, needs } = serviceChangeProblems({ before, after, changed }, roles);
  if (Object.keys(forbidden).length > 0) {
    const first = Object.values(forbidden)[0]?.[0] ?? SERVICE_REQUEST_TEXTS.moveNotYours;
    throw new DomainError('forbidden', first, { fields: forbidden });
  }
  // The request's calls go to its agent alone (calls.ts): one without the permission could never
  // be called, and the request's caller would read 'All agents busy' for good. An agent is a
  // member; only a refusal asks which of the two it lacks.
  const assignee = after.assigned_to;
  if (
    changed.includes('assigned_to') &&
    assignee !== null &&
    !(await serviceAgentsOf(trx, accountId, assignee)).has(assignee)
  ) {
    const member = await new UserRepository(trx).isMember(accountId, assignee);
    needs.assigned_to = [
      member ? SERVICE_REQUEST_TEXTS.assigneeNotAgent : SERVICE_REQUEST_TEXTS.assigneeNotMember,
    ];
  }
  if (Object.keys(needs).length > 0) throw invalidInput(needs);
}

/**
 * The members of the account whose roles hold the service-agent permission (calls go to them
 * alone); `onlyUser` asks of one.
 */
export function serviceAgentsOf(
  db: Db,
  accountId: string,
  onlyUser?: string,
): Promise<Set<string>> {
  return new UserRepository(db).holdersOf(accountId, SERVICE_PERMISSIONS.agent, onlyUser);
}

/** The request names its agent as the server knows it (who may not list users reads it). */
async function nameAgent(trx: Db, request: ServiceRequestAttributes): Promise<void> {
  if (request.assigned_to === null) {
    request.agent_name = null;
    return;
  }
  const user = await new UserRepository(trx).findById(request.assigned_to);
  request.agent_name = user === undefined ? null : personName(user);
}

/**
 * A new request: who and when are the server's, and so is the machine's context (taken now,
 * when the request reaches the server, if its reporter agreed); checked as a change from a fresh
 * open request by its writer (an admin may file it assigned at once).
 */
export async function serviceCreate({
  trx,
  accountId,
  type,
  attributes,
  access,
  asServer,
  now,
  machine,
}: NewModel): Promise<void> {
  if (type !== serviceRequestModel.type) return;
  const request = attributes as ServiceRequestAttributes;
  if (!asServer || request.reported_by === null) request.reported_by = access?.userId ?? null;
  request.reported_at = now;
  request.changed_at = now;
  if (!asServer) request.calls = [];
  const fresh = serviceRequestAttributesSchema.parse({
    asset_id: request.asset_id,
    title: request.title,
    description: request.description,
    consent: request.consent,
    reported_by: request.reported_by,
  });
  const changed = (Object.keys(request) as (keyof ServiceRequestAttributes)[]).filter(
    (k) => JSON.stringify(request[k]) !== JSON.stringify(fresh[k]) && k !== 'context',
  );
  const roles = serviceRoles(request, access);
  roles.add('reporter');
  // The server's own (the demo's request, already in progress) is placed as it says.
  if (!asServer) await refuseChange(trx, accountId, fresh, request, changed, roles);
  await nameAgent(trx, request);
  request.context =
    request.consent && machine !== undefined
      ? await machine.contextOf(trx, accountId, request.asset_id, now)
      : asServer
        ? request.context
        : null;
}

/** A change of a request: the table decides by the stored request; its change time stamped. */
export async function serviceUpdate(
  trx: Db,
  accountId: string,
  before: ServiceRequestAttributes,
  after: ServiceRequestAttributes,
  changed: readonly string[],
  access: AccessDecision | undefined,
  now: number,
): Promise<void> {
  await refuseChange(trx, accountId, before, after, changed, serviceRoles(before, access));
  if (changed.includes('assigned_to')) await nameAgent(trx, after);
  after.changed_at = now;
}

/**
 * Keeps the request's `service_access` row as the request now is (null: it is gone): its agent
 * sees its asset while it is active and assigned, never else. Answers whether the row changed
 * (the caller tells the browsers that access moved).
 */
export async function keepServiceAccess(
  trx: Db,
  accountId: string,
  requestId: string,
  request: ServiceRequestAttributes | null,
): Promise<boolean> {
  const scope = scopeTo(trx, accountId);
  const stored = await scope
    .selectFrom('service_access')
    .select(['user_id', 'asset_id'])
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  const wanted =
    request !== null &&
    request.assigned_to !== null &&
    ACTIVE_SERVICE_STATES.includes(request.state)
      ? { user_id: request.assigned_to, asset_id: request.asset_id }
      : null;
  if (stored?.user_id === wanted?.user_id && stored?.asset_id === wanted?.asset_id) return false;
  if (stored !== undefined)
    await scope.deleteFrom('service_access').where('request_id', '=', requestId).execute();
  if (wanted !== null)
    await scope.insertInto('service_access', [{ request_id: requestId, ...wanted }]).execute();
  return true;
}

export const SERVICE_REQUEST_TYPE = serviceRequestModel.type;
