/*
 * Apart from the permission table (permission-table.ts), which only the roles page and the
 * server read: the account's managed models check these on every first visit.
 */

/** The types whose fields a role chooses (spec 001 §6: fields are dragged into a role). */
export const FIELD_TYPES = ['asset', 'datastream'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
