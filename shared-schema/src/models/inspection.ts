import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { INSPECTION_TEXTS } from './inspection-texts';
import { DEFAULT_INSPECTION_SIDE_MS, INSPECTION_LIMITS } from './inspection-limits';
export { INSPECTION_TEXTS } from './inspection-texts';
export {
  DEFAULT_INSPECTION_SIDE_MS,
  INSPECTION_LIMITS,
  inspectionWindow,
} from './inspection-limits';

/*
 * Event inspection (issue 37 item 5, route `/app/devices/{id}/eventinspection/{opportunityid}`):
 * every stream of an asset on one time axis around a moment (an alarm's raise, or any moment
 * picked on a diagram), the alarm's transitions marked, and notes. The route's id is the
 * inspection's: opening an event makes one (its id made on the device, so offline too) and a
 * colleague who sees the asset opens the same link and gets the same inspection by sync.
 *
 * Who may do what: an inspection looks at a machine, it changes nothing of it. So whoever sees
 * the asset (`asset::view` and sight of that asset) opens one, moves its window and adds notes,
 * like an acknowledgement (alarm_ack) is given by who sees an alarm; deleting one, or a note,
 * takes the asset's edit right (server/src/inspections/inspection-rules.ts).
 *
 * Notes are models of their own (`inspection_note`), not a list inside the inspection: a write
 * carries the whole value of an attribute, so two colleagues adding notes offline to one list
 * would each send their list and the later would drop the other's note. Each note is its own
 * create, lands once, and none overwrites another.
 */

/** The latest moment an inspection may name (the year 9999): no Date beyond what JS shows. */
const MAX_MOMENT_MS = 253_402_300_799_999;

const sideField = /* @__PURE__ */ deferred(() =>
  z
    .number({ error: INSPECTION_TEXTS.window })
    .int(INSPECTION_TEXTS.window)
    .min(0, INSPECTION_TEXTS.window)
    .max(INSPECTION_LIMITS.maxSideMs, INSPECTION_TEXTS.window)
    .default(DEFAULT_INSPECTION_SIDE_MS),
);

export const inspectionAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    asset_id: idField,
    /** The moment inspected (epoch ms): an alarm event's time, or one picked on a diagram. */
    at: z.number().int().min(0).max(MAX_MOMENT_MS),
    /** The alarm whose event it is (one of the asset's), or null for a moment picked freely. */
    alarm_id: idField.nullable().default(null),
    /**
     * The window: from `at - before_ms` to `at + after_ms`. Moved as a whole ("shift"), it keeps
     * the moment inside: an inspection is about its moment.
     */
    before_ms: sideField,
    after_ms: sideField,
    /** Server fields: who opened it and when (epoch ms). */
    created_by: z.string().nullable().default(null),
    created_at: z.number().nullable().default(null),
  }),
);
export type InspectionAttributes = z.infer<typeof inspectionAttributesSchema>;

export const inspectionModel = {
  type: 'inspection',
  collection: 'inspections',
  parentType: 'asset',
  parentField: 'asset_id',
  attributes: inspectionAttributesSchema,
  refs: { asset_id: 'asset', alarm_id: 'alarm' },
  permissions: {
    view: 'asset::view',
    create: 'asset::view',
    update: 'asset::view',
    delete: 'asset::edit',
  },
  sortField: 'at',
  asset: 'asset_id',
  serverFields: ['created_by', 'created_at'],
  fixed: ['asset_id', 'at', 'alarm_id'],
} as const satisfies ModelDefinition<'inspection', typeof inspectionAttributesSchema>;

export const inspectionNoteAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    inspection_id: idField,
    /** The inspection's asset (copied from the stored inspection: access follows it). */
    asset_id: idField,
    text: z
      .string({ error: INSPECTION_TEXTS.noteRequired })
      .trim()
      .min(1, { error: INSPECTION_TEXTS.noteRequired, abort: true })
      .max(INSPECTION_LIMITS.maxNote, INSPECTION_TEXTS.noteTooLong),
    /** Server fields: who wrote it and when (epoch ms). */
    by_user: z.string().nullable().default(null),
    at: z.number().nullable().default(null),
  }),
);
export type InspectionNoteAttributes = z.infer<typeof inspectionNoteAttributesSchema>;

export const inspectionNoteModel = {
  type: 'inspection_note',
  collection: 'inspection_notes',
  parentType: 'inspection',
  parentField: 'inspection_id',
  attributes: inspectionNoteAttributesSchema,
  refs: { asset_id: 'asset', inspection_id: 'inspection' },
  fromParent: ['asset_id'],
  permissions: {
    view: 'asset::view',
    create: 'asset::view',
    update: 'asset::edit',
    delete: 'asset::edit',
  },
  sortField: 'at',
  asset: 'asset_id',
  serverFields: ['by_user', 'at'],
  fixed: ['inspection_id', 'text'],
} as const satisfies ModelDefinition<'inspection_note', typeof inspectionNoteAttributesSchema>;
