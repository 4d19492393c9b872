import type { z } from 'zod';
import {
  ACCOUNT_EDIT_PERMISSION,
  ACCOUNT_OUT_OF_REACH,
  accountAttributesSchema,
  accountModel,
  fieldErrorsOf,
  isInternal,
  memberAttributesSchema,
  memberModel,
  roleModel,
  tagAttributesSchema,
  tagModel,
  TAGS_ARE_INTERNAL,
  MEMBERS_JOIN_BY_INVITATION,
  ACCOUNTS_ARE_NOT_DELETED,
  TAG_TAKEN,
  TAG_HOLDER_NOT_MEMBER,
  type ModelDefinition,
  type ModelUpdate,
  type SyncedModel,
} from '@plant/shared-schema';
import { isUniqueViolation, type Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { AccessRepository } from '../repositories/access.repository';
import { AccountRepository } from '../repositories/account.repository';
import { AccountOps } from './account-admin.service';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import { ThemeResolver } from '../themes/theme-resolver';
import { accountModelOf, ManagedLog, memberModels, roleModels, tagModels } from './managed-log';
import { MemberOps } from './member.service';
import type { WriteKind } from './model-transaction';
import { idTaken, mergeList, roleChangeSchema, RoleOps } from './role-ops';
import type { Session } from './session';

const SUBACCOUNTS_IN_THE_APP = 'Subaccounts are made in the app, not with an access token.';

export interface ManagedResult {
  readonly model: SyncedModel | null;
  /** The updates logged in the active account. */
  readonly updates: ModelUpdate[];
  /** Those logged in other accounts (an account's ancestors). */
  readonly others: ReadonlyMap<string, ModelUpdate[]>;
  /** Whether what users may see moved (roles, memberships): the broker re-checks. */
  readonly accessMoved: boolean;
}

/**
 * The accounts besides the active one whose logs a managed write may append to (an account's
 * change goes to its ancestors' logs: before and after a move), for locking their clocks first.
 */
export async function logsTouchedBy(
  db: Db,
  def: Pick<ModelDefinition, 'type'>,
  op: { readonly id?: string; readonly body: Record<string, unknown> },
): Promise<string[]> {
  if (def.type !== accountModel.type) return [];
  const accounts = new AccountRepository(db);
  const parent = typeof op.body.parent_id === 'string' ? op.body.parent_id : undefined;
  const chains = await Promise.all(
    [op.id, parent].flatMap((id) => (id === undefined ? [] : [accounts.chainUp(id)])),
  );
  // A new theme or place changes the design the accounts below show: they are logged too.
  const below =
    op.id !== undefined && ('theme_id' in op.body || parent !== undefined)
      ? await accounts.below(op.id)
      : [];
  return [...chains.flat(), ...below].map((a) => a.id);
}

/**
 * The body through the schema, keeping only the attributes the body names: a partial zod object
 * still fills in its fields' defaults, which would overwrite what the write did not mention.
 */
function parsed<S extends z.ZodType>(
  schema: S,
  body: Record<string, unknown>,
): Partial<z.output<S>> {
  const result = schema.safeParse(body);
  if (!result.success) throw invalidInput(fieldErrorsOf(result.error));
  return Object.fromEntries(
    Object.entries(result.data as object).filter(([k]) => k in body),
  ) as Partial<z.output<S>>;
}

const roleCreate = roleChangeSchema.required({ name: true });
const memberChange = memberAttributesSchema.pick({ role_ids: true, base: true }).partial();
const accountCreate = accountAttributesSchema.pick({ name: true, parent_id: true });
const accountChange = accountAttributesSchema
  .pick({ name: true, parent_id: true, active: true, theme_id: true, host: true })
  .partial();
const tagChange = tagAttributesSchema.partial();

/**
 * What a managed write's body may say, per model type and kind: checked before any rule runs, so
 * a missing, empty or wrong-typed field is a 422 with its field's message wherever the write
 * goes next (a bare `schema.parse` in a branch threw a ZodError, answered 500). Members are not
 * made here (invitations), deletes take no attributes.
 */
const BODY_SCHEMAS: Readonly<Record<string, Partial<Record<WriteKind, z.ZodType>>>> = {
  [roleModel.type]: { create: roleCreate, update: roleChangeSchema },
  [memberModel.type]: { update: memberChange },
  [accountModel.type]: { create: accountCreate, update: accountChange },
  [tagModel.type]: { create: tagAttributesSchema, update: tagChange },
};

/**
 * A write of a managed model (models/managed.ts) through the generic routes, inside the caller's
 * transaction: the same rules as the administration routes (RoleOps, MemberOps, AccountOps), then
 * the model's whole state logged. The caller checked the type's permission and the account.
 */
export async function writeManaged(
  trx: Db,
  clock: Clock,
  session: Session,
  accountId: string,
  def: ModelDefinition,
  kind: WriteKind,
  id: string,
  body: Record<string, unknown>,
): Promise<ManagedResult> {
  // An update of a role, member or account is checked by its branch, after the model is looked
  // up: another account's model is unknown (404) whatever the body says, never a 422 first.
  const checkedAfterLookup = kind === 'update' && def.type !== tagModel.type;
  const schema = BODY_SCHEMAS[def.type]?.[kind];
  if (schema !== undefined && !checkedAfterLookup) parsed(schema, body);
  let log = new ManagedLog(trx);
  let accessMoved = true;
  let find: () => Promise<SyncedModel | undefined>;
  if (def.type === roleModel.type) {
    const ops = new RoleOps(trx, session, accountId);
    if (kind === 'create') {
      const change = parsed(roleCreate, body);
      await ops.create(id, change.name ?? '');
      await ops.apply(id, change);
    } else if (kind === 'update') {
      // Another account's role is unknown whatever the body says: looked up before it is read.
      await ops.changeable(id);
      await ops.apply(id, parsed(roleChangeSchema, body));
    } else {
      await ops.remove(id);
    }
    await log.roles(accountId, [id]);
    find = async () => (await roleModels(trx, accountId)).find((m) => m.id === id);
  } else if (def.type === memberModel.type) {
    if (kind === 'create') throw new DomainError('invalid', MEMBERS_JOIN_BY_INVITATION);
    const ops = new MemberOps(trx, clock, session, accountId);
    const touched =
      kind === 'delete'
        ? await ops.remove(id)
        : await (async () => {
            await ops.heldIn(id);
            const change = parsed(memberChange, body);
            return ops.setRolesIfGiven(id, change.role_ids, change.base?.role_ids);
          })();
    await log.members(accountId, [id]);
    await log.roles(accountId, touched);
    // A member who leaves no longer holds the account's tags.
    if (kind === 'delete')
      await log.tags(
        accountId,
        (await tagModels(trx, accountId)).map((t) => t.id),
      );
    find = async () => (await memberModels(trx, accountId)).find((m) => m.id === id);
  } else if (def.type === accountModel.type) {
    const ops = new AccountOps(trx, clock, session);
    if (kind === 'delete') {
      // An account out of reach is unknown; one in reach is deactivated, never deleted.
      await ops.inReach(id, ACCOUNT_EDIT_PERMISSION);
      throw new DomainError('invalid', ACCOUNTS_ARE_NOT_DELETED);
    }
    log = ops.log;
    accessMoved = false;
    if (kind === 'create') {
      // A new account makes its maker its admin: a membership a scoped token (acting with one
      // role) must not hand out. Subaccounts are made in the app (as POST account/subaccounts).
      if (session.ctx.scopes !== undefined) throw forbidden(SUBACCOUNTS_IN_THE_APP);
      const req = parsed(accountCreate, body);
      if (req.name === undefined) throw invalidInput({ name: ['Field is required'] });
      try {
        await ops.create(id, req.name, req.parent_id);
      } catch (err) {
        if (isUniqueViolation(err, 'accounts', 'id')) throw idTaken();
        throw err;
      }
    } else {
      await ops.inReach(id, ACCOUNT_EDIT_PERMISSION);
      const { parent_id: parent, ...change } = parsed(accountChange, body);
      if (parent === null) throw invalidInput({ parent_id: [ACCOUNT_OUT_OF_REACH] });
      await ops.change(id, { ...change, ...(parent === undefined ? {} : { parent_id: parent }) });
    }
    find = async () => {
      const row = (await new AccountRepository(trx).chainUp(id))[0];
      return row === undefined ? undefined : accountModelOf(row, accountId, new ThemeResolver(trx));
    };
  } else if (def.type === tagModel.type) {
    // A tag opens features (feature flags): only the machine builder's staff hand them out.
    if (!isInternal(session.ctx)) throw forbidden(TAGS_ARE_INTERNAL);
    await writeTag(trx, accountId, kind, id, body);
    await log.tags(accountId, [id]);
    find = async () => (await tagModels(trx, accountId)).find((m) => m.id === id);
  } else {
    throw notFound('Collection');
  }
  const model = kind === 'delete' ? undefined : await find();
  const all = await log.commit(clock.now());
  const updates = all.get(accountId) ?? [];
  const others = new Map([...all].filter(([account]) => account !== accountId));
  const own = updates.filter((u) => u.type === def.type && u.id === id).at(-1);
  return {
    model: model === undefined ? null : { ...model, last_seq: own?.seq ?? 0 },
    updates,
    others,
    accessMoved,
  };
}

/** Makes, changes or deletes one of the account's tags, checked against its other tags. */
async function writeTag(
  trx: Db,
  accountId: string,
  kind: WriteKind,
  id: string,
  body: Record<string, unknown>,
): Promise<void> {
  const repo = new AccessRepository(trx);
  const tags = await tagModels(trx, accountId);
  const current = tags.find((t) => t.id === id);
  if (kind === 'delete') {
    if (current === undefined) throw notFound('Tag');
    await repo.removeAccountTag(accountId, id);
    return;
  }
  if (kind === 'update' && current === undefined) throw notFound('Tag');
  if (kind === 'create' && current !== undefined) throw idTaken();
  const given = parsed(tagChange, body);
  const before = tagAttributesSchema.parse(current?.attributes ?? { slug: 'new' });
  const next = {
    slug: given.slug ?? before.slug,
    parents: given.parents ?? before.parents,
    user_ids:
      given.user_ids === undefined
        ? before.user_ids
        : mergeList(before.user_ids, given.user_ids, given.base?.user_ids, (u) => u),
  };
  if (tags.some((t) => t.id !== id && t.attributes.slug === next.slug)) {
    throw new DomainError('conflict', TAG_TAKEN, { fields: { slug: [TAG_TAKEN] } });
  }
  const members = new Set((await memberModels(trx, accountId)).map((m) => m.id));
  if (next.user_ids.some((u) => !members.has(u))) {
    throw invalidInput({ user_ids: [TAG_HOLDER_NOT_MEMBER] });
  }
  try {
    await repo.saveAccountTag(accountId, { id, ...next }, current !== undefined);
  } catch (err) {
    if (isUniqueViolation(err, 'tags', 'id')) throw idTaken();
    throw err;
  }
}
