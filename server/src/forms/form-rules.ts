import {
  computeEntry,
  entryProblems,
  FORM_TEXTS,
  formEntryModel,
  formVersionModel,
  problemText,
  taskModel,
  taskStateModel,
  templateModel,
  assetModel,
  type FileAttributes,
  type FormEntryAttributes,
  type FormVersionAttributes,
  type TaskAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';
import type { AccessDecision } from '../services/access-decision';
import { forbidden, invalidInput } from '../services/domain-error';
import type { NewModel } from '../services/new-model';

/*
 * The server's rules of forms (issue 37 items 1 and 2) beside the generic model writes: a version
 * is numbered by the server and never changed; an entry is checked against the version it names
 * (as stored: its fields decide, not what the client says they were), its formulas computed here,
 * stamped with who sent it and when, and never changed after; a task names assets and templates
 * of the account; a task's state per asset is the server's alone (tasks/task-states.ts).
 */

/** The types these rules are about. */
export const FORM_TYPES: ReadonlySet<string> = new Set([
  formVersionModel.type,
  formEntryModel.type,
  taskModel.type,
  taskStateModel.type,
]);

const parse = <T>(row: { attributes: string }): T => JSON.parse(row.attributes) as T;

/** A new version's number (the form's next), its writer and time. */
async function stampVersion(
  trx: Db,
  accountId: string,
  version: Record<string, unknown>,
  userId: string | null,
  now: number,
): Promise<void> {
  const rows = await new ModelRepository(trx).children(
    accountId,
    'form',
    version.form_id as string,
  );
  const numbers = rows
    .filter((r) => r.type === formVersionModel.type)
    .map((r) => parse<FormVersionAttributes>(r).number);
  version.number = Math.max(0, ...numbers) + 1;
  version.created_by = userId;
  version.created_at = now;
}

/**
 * A new entry: of a version of its form, its answers valid for that version's fields (formulas
 * computed from the others), for a task of its form that names its asset; stamped with its
 * sender and arrival.
 */
async function checkEntry(
  trx: Db,
  accountId: string,
  entry: Record<string, unknown>,
  userId: string | null,
  now: number,
): Promise<void> {
  const models = new ModelRepository(trx);
  const e = entry as FormEntryAttributes;
  const versionRow = await models.find(accountId, formVersionModel.type, e.form_version_id);
  if (versionRow === undefined) return; // the registry's refs say 'Unknown form_version.'
  const version = parse<FormVersionAttributes>(versionRow);
  if (version.form_id !== e.form_id) throw invalidInput({ form_version_id: [FORM_TEXTS.version] });
  const problems = entryProblems(version.fields, e.values);
  if (Object.keys(problems).length > 0) {
    throw invalidInput(
      Object.fromEntries(
        Object.entries(problems).map(([id, p]) => [`values.${id}`, [problemText(p)]]),
      ),
    );
  }
  entry.values = computeEntry(version.fields, e.values);
  if (e.task_id !== null) {
    const taskRow = await models.find(accountId, taskModel.type, e.task_id);
    const task = taskRow === undefined ? undefined : parse<TaskAttributes>(taskRow);
    if (task !== undefined && task.form_id !== e.form_id)
      throw invalidInput({ task_id: [FORM_TEXTS.version] });
  }
  entry.filled_by = userId;
  entry.received_at = now;
  entry.counter_value = null;
}

/** A task's assets and templates are the account's, and it names at least one. */
async function checkTask(trx: Db, accountId: string, task: TaskAttributes): Promise<void> {
  if (task.asset_ids.length + task.template_ids.length === 0)
    throw invalidInput({ asset_ids: [FORM_TEXTS.taskTargets] });
  const models = new ModelRepository(trx);
  for (const [field, type, ids] of [
    ['asset_ids', assetModel.type, task.asset_ids],
    ['template_ids', templateModel.type, task.template_ids],
  ] as const) {
    for (const id of ids) {
      if ((await models.find(accountId, type, id)) === undefined)
        throw invalidInput({ [field]: [`Unknown ${type}.`] });
    }
  }
}

/** The form types' rules of a create, in its transaction (after the schema and the access). */
export async function formCreate({
  trx,
  accountId,
  type,
  attributes,
  access,
  asServer,
  now,
}: NewModel): Promise<void> {
  const userId = access?.userId ?? null;
  if (type === taskStateModel.type && !asServer) throw forbidden();
  if (type === formVersionModel.type && !asServer)
    await stampVersion(trx, accountId, attributes, userId, now);
  if (type === formEntryModel.type && !asServer)
    await checkEntry(trx, accountId, attributes, userId, now);
  if (type === taskModel.type) await checkTask(trx, accountId, attributes as TaskAttributes);
}

/** The form types' rules of an update or a delete. */
export async function formChange(
  trx: Db,
  accountId: string,
  type: string,
  after: Record<string, unknown> | null,
  asServer: boolean,
): Promise<void> {
  if (asServer) return;
  // A version and an entry are what was published and what was filled in: kept as they are.
  if (type === formVersionModel.type || type === taskStateModel.type) throw forbidden();
  if (type === formEntryModel.type && after !== null)
    throw invalidInput({ values: [FORM_TEXTS.entryFixed] });
  if (type === taskModel.type && after !== null)
    await checkTask(trx, accountId, after as TaskAttributes);
}

/**
 * A photo or signature of an entry: a file naming the entry and the entry's own asset, added by
 * who filled the entry in (who holds form_entry::create); the asset's access decides who sees it.
 */
export async function mayChangeEntryFile(
  trx: Db,
  accountId: string,
  file: Pick<FileAttributes, 'form_entry_id' | 'asset_id'>,
  access: AccessDecision,
): Promise<void> {
  const row =
    file.form_entry_id === null
      ? undefined
      : await new ModelRepository(trx).find(accountId, formEntryModel.type, file.form_entry_id);
  if (row === undefined) throw invalidInput({ form_entry_id: ['Unknown form_entry.'] });
  const entry = parse<FormEntryAttributes>(row);
  if (entry.asset_id !== file.asset_id) throw invalidInput({ asset_id: [FORM_TEXTS.entryOwn] });
  if (!access.permits(formEntryModel.permissions.create) || entry.filled_by !== access.userId)
    throw forbidden();
}
