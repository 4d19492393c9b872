import {
  alarmModel,
  INSPECTION_LIMITS,
  INSPECTION_TEXTS,
  inspectionModel,
  inspectionNoteModel,
  type InspectionAttributes,
  type InspectionNoteAttributes,
} from '@plant/shared-schema';
import { ModelRepository } from '../repositories/model.repository';
import { invalidInput } from '../services/domain-error';
import type { NewModel } from '../services/new-model';

/*
 * The event inspection's rules (issue 37 item 5, shared-schema models/inspection.ts), run inside
 * the model transaction (services/model-transaction.ts). An inspection looks at a machine and
 * changes nothing of it: whoever sees the asset opens one, moves its window and adds notes (as
 * an operator acknowledges the alarms of a machine it may not reconfigure); deleting an
 * inspection or a note takes the asset's edit right. Everything is judged by what the server
 * stored: the asset of a note is its stored inspection's (registry `fromParent`), the alarm of
 * an inspection must be one of the inspection's asset, as stored.
 */

/** Types whose create needs only sight of their asset (with the type's create permission). */
export function createdBySight(type: string): boolean {
  return type === inspectionModel.type || type === inspectionNoteModel.type;
}

/** Types whose update needs only sight of their asset: an inspection's window, moved. */
export function changedBySight(type: string): boolean {
  return type === inspectionModel.type;
}

/** Types whose delete needs the asset's edit right although their updates need sight only. */
export function removedByEditors(type: string): boolean {
  return type === inspectionModel.type;
}

/**
 * A new inspection or note, before it is stored: the server's fields stamped (who, when; a
 * client's values were dropped as server fields), an inspection's alarm checked against its
 * asset, a note counted against its inspection's bound.
 */
export async function inspectionCreate({
  trx,
  accountId,
  type,
  attributes,
  access,
  asServer,
  now,
}: NewModel): Promise<void> {
  const user = access?.userId ?? null;
  if (type === inspectionModel.type) {
    const inspection = attributes as InspectionAttributes;
    if (!asServer || inspection.created_by === null) inspection.created_by = user;
    inspection.created_at = now;
    if (inspection.alarm_id !== null) {
      const alarm = await new ModelRepository(trx).find(
        accountId,
        alarmModel.type,
        inspection.alarm_id,
      );
      // Missing and of another asset are told alike: the writer sees this asset, perhaps not
      // the other, and the answer must not say whether that alarm exists.
      if (alarm?.asset_id !== inspection.asset_id)
        throw invalidInput({ alarm_id: [INSPECTION_TEXTS.alarmNotOfAsset] });
    }
    return;
  }
  if (type === inspectionNoteModel.type) {
    const note = attributes as InspectionNoteAttributes;
    if (!asServer || note.by_user === null) note.by_user = user;
    note.at = now;
    const siblings = await new ModelRepository(trx).children(
      accountId,
      inspectionModel.type,
      note.inspection_id,
    );
    const notes = siblings.filter((row) => row.type === inspectionNoteModel.type).length;
    if (notes >= INSPECTION_LIMITS.maxNotes)
      throw invalidInput({ text: [INSPECTION_TEXTS.tooManyNotes] });
  }
}
