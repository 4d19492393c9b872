import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import { LANGUAGES, type Language } from '../constants';
import type { ModelDefinition } from './registry-types';
import { ownPermissions, viewEditPermissions } from './model-permissions';
import { evaluateFormula, formulaFields, parseFormula, FORMULA_MAX_LENGTH } from '../forms/formula';
import { FORM_TEXTS } from './form-texts';
export { FORM_TEXTS } from './form-texts';

/*
 * Forms (issue 37 items 1 and 2, DESIGN.md §16): a `form` is what the designer edits (its draft
 * fields); publishing makes a `form_version`, a frozen copy of the fields numbered by the server,
 * and technicians fill in that version as a `form_entry` under the asset, offline too. An entry
 * names its version, so it always shows the form it was filled with, however the form changed
 * since. A field's photos and signature are `file`s of the entry (registry altParents
 * `form_entry_id`, beside their asset); the entry's value of such a field is their ids.
 */

export const FORM_FIELD_TYPES = [
  'text',
  'number',
  'select',
  'multiselect',
  'checkbox',
  'datetime',
  'photo',
  'signature',
  'formula',
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** Fields whose value is files of the entry (their ids). */
export const FILE_FIELD_TYPES: readonly FormFieldType[] = ['photo', 'signature'];

/** Words per language (the product's languages); at least one is given. */
export const formTextsSchema = /* @__PURE__ */ deferred(() =>
  z
    .object(
      Object.fromEntries(LANGUAGES.map((l) => [l, z.string().max(500).optional()])) as {
        [L in Language]: z.ZodOptional<z.ZodString>;
      },
    )
    .refine((texts) => Object.values(texts).some((t) => t !== undefined && t.trim() !== ''), {
      message: FORM_TEXTS.label,
    }),
);
export type FormTexts = z.infer<typeof formTextsSchema>;

/** A field's or option's id: what an entry's values are keyed by and formulas name. */
export const formFieldIdField = /* @__PURE__ */ deferred(() =>
  z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'An id is lower-case letters, digits and _.'),
);

export const formOptionSchema = /* @__PURE__ */ deferred(() =>
  z.object({ id: formFieldIdField, label: formTextsSchema }),
);

export const formFieldSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: formFieldIdField,
    type: z.enum(FORM_FIELD_TYPES),
    label: formTextsSchema,
    required: z.boolean().default(false),
    /** Number fields: the lowest and highest value allowed. */
    min: z.number().finite().nullable().default(null),
    max: z.number().finite().nullable().default(null),
    /** Number and formula fields: the unit shown after the value. */
    unit: z.string().max(50).default(''),
    /** Text fields: the longest answer; several lines or one. */
    max_length: z.number().int().min(1).max(5000).default(2000),
    multiline: z.boolean().default(false),
    /** Select and multi-select fields. */
    options: z.array(formOptionSchema).max(100).default([]),
    /** Multi-select fields: how many options may be chosen at most (null: any). */
    max_selections: z.number().int().min(1).max(100).nullable().default(null),
    /** Formula fields: the formula over the form's number and formula fields. */
    formula: z.string().max(FORMULA_MAX_LENGTH).default(''),
    /** Photo fields: how many photos at most. */
    max_files: z.number().int().min(1).max(10).default(5),
  }),
);
export type FormField = z.output<typeof formFieldSchema>;
export type FormFieldInput = z.input<typeof formFieldSchema>;

/** What is wrong with a form's fields as designed, by field id (and '' for the form). */
export function formDesignProblems(fields: readonly FormField[]): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (id: string, text: string) => (problems[id] ??= []).push(text);
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.id)) add(f.id, FORM_TEXTS.fieldIds);
    seen.add(f.id);
    if ((f.type === 'select' || f.type === 'multiselect') && f.options.length === 0)
      add(f.id, FORM_TEXTS.options);
    if (new Set(f.options.map((o) => o.id)).size !== f.options.length)
      add(f.id, FORM_TEXTS.fieldIds);
    if (f.min !== null && f.max !== null && f.min > f.max) add(f.id, FORM_TEXTS.limits);
  }
  const numeric = new Map(
    fields.filter((f) => f.type === 'number' || f.type === 'formula').map((f) => [f.id, f]),
  );
  for (const f of fields) {
    if (f.type !== 'formula') continue;
    if (formulaOrder(f.id, numeric) === null) add(f.id, FORM_TEXTS.formula);
  }
  return problems;
}

/**
 * The formula fields a formula depends on, deepest first, ending with itself; null when it does
 * not parse, names a field that is not a number or formula field, or depends on itself.
 */
function formulaOrder(id: string, numeric: ReadonlyMap<string, FormField>): string[] | null {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (fieldId: string): boolean => {
    const field = numeric.get(fieldId);
    if (field === undefined) return false;
    if (field.type === 'number') return true;
    if (order.includes(fieldId)) return true;
    if (visiting.has(fieldId)) return false;
    visiting.add(fieldId);
    const tree = parseFormula(field.formula);
    if (tree === null || !formulaFields(tree).every(visit)) return false;
    visiting.delete(fieldId);
    order.push(fieldId);
    return true;
  };
  return visit(id) ? order : null;
}

export const formFieldsSchema = /* @__PURE__ */ deferred(() =>
  z
    .array(formFieldSchema)
    .max(100, 'A form may have at most 100 fields.')
    .superRefine((fields, ctx) => {
      for (const [id, texts] of Object.entries(formDesignProblems(fields))) {
        const index = fields.findIndex((f) => f.id === id);
        for (const message of texts) ctx.addIssue({ code: 'custom', message, path: [index] });
      }
    }),
);

export const formAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    description: z.string().max(5000).default(''),
    /** The fields as the designer has them now (published as a version when ready). */
    fields: formFieldsSchema.default([]),
  }),
);
export type FormAttributes = z.infer<typeof formAttributesSchema>;

export const formModel = {
  type: 'form',
  collection: 'forms',
  parentType: 'account',
  attributes: formAttributesSchema,
  permissions: ownPermissions('form'),
  sortField: 'name',
} as const satisfies ModelDefinition<'form', typeof formAttributesSchema>;

/** A published version of a form: its fields frozen, numbered 1, 2, … by the server. */
export const formVersionAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    form_id: idField,
    name: modelNameField,
    fields: formFieldsSchema.refine((f) => f.length > 0, FORM_TEXTS.noFields),
    number: z.number().int().min(0).default(0),
    created_by: z.string().nullable().default(null),
    created_at: z.number().int().nullable().default(null),
  }),
);
export type FormVersionAttributes = z.infer<typeof formVersionAttributesSchema>;

export const formVersionModel = {
  type: 'form_version',
  collection: 'form_versions',
  parentType: 'form',
  parentField: 'form_id',
  attributes: formVersionAttributesSchema,
  // Publishing is editing the form; a version is never changed or deleted (entries name it).
  permissions: viewEditPermissions('form::view', 'form::edit'),
  sortField: 'number',
  serverFields: ['number', 'created_by', 'created_at'],
  fixed: ['form_id', 'name', 'fields'],
} as const satisfies ModelDefinition<'form_version', typeof formVersionAttributesSchema>;

/** One field's answer as stored: text, number, option(s), tick, time, file ids, or nothing. */
export const formValueSchema = /* @__PURE__ */ deferred(() =>
  z.union([
    z.string().max(5000),
    z.number().finite(),
    z.boolean(),
    z.null(),
    z.array(z.string().max(64)).max(100),
  ]),
);
export type FormValue = z.infer<typeof formValueSchema>;

export const formValuesSchema = /* @__PURE__ */ deferred(() =>
  z
    .record(formFieldIdField, formValueSchema)
    .refine((v) => Object.keys(v).length <= 100, 'At most 100 answers.'),
);
export type FormValues = z.infer<typeof formValuesSchema>;

export const formEntryAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    asset_id: idField,
    form_id: idField,
    form_version_id: idField,
    /** The task it was filled for (null: filled without one). */
    task_id: idField.nullable().default(null),
    values: formValuesSchema.default({}),
    /** When the technician finished it (the tablet's clock, offline too). */
    filled_at: z.number().int().min(0),
    /** The server's: who sent it, when it arrived, the task's counter then. */
    filled_by: z.string().nullable().default(null),
    received_at: z.number().int().nullable().default(null),
    counter_value: z.number().nullable().default(null),
  }),
);
export type FormEntryAttributes = z.infer<typeof formEntryAttributesSchema>;

export const formEntryModel = {
  type: 'form_entry',
  collection: 'form_entries',
  parentType: 'asset',
  parentField: 'asset_id',
  attributes: formEntryAttributesSchema,
  refs: { form_id: 'form', form_version_id: 'form_version', task_id: 'task' },
  permissions: ownPermissions('form_entry'),
  sortField: 'filled_at',
  serverFields: ['filled_by', 'received_at', 'counter_value'],
  fixed: ['asset_id', 'form_id', 'form_version_id', 'task_id', 'values', 'filled_at'],
  asset: 'asset_id',
} as const satisfies ModelDefinition<'form_entry', typeof formEntryAttributesSchema>;

/** A problem with one answer: its text and, for 'Must be at least {number}', the number. */
export interface FieldProblem {
  readonly text: string;
  readonly number?: number;
}

/** A field's label in a language: its own words, else English, else the first given. */
export function formText(texts: FormTexts, lang: Language): string {
  const own = texts[lang];
  if (own !== undefined && own.trim() !== '') return own;
  const en = texts.en;
  if (en !== undefined && en.trim() !== '') return en;
  return Object.values(texts).find((t) => t !== undefined && t.trim() !== '') ?? '';
}

const DAY = 86_400_000;
const EARLIEST = Date.UTC(1900, 0, 1);
const LATEST = Date.UTC(2200, 0, 1) - DAY;

/** What is wrong with one field's stored answer (null: nothing). Formulas are computed. */
export function fieldProblem(field: FormField, value: FormValue | undefined): FieldProblem | null {
  const v = value ?? null;
  const empty = v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0);
  if (field.type === 'formula') return null;
  if (empty) return field.required ? { text: FORM_TEXTS.required } : null;
  switch (field.type) {
    case 'text':
      if (typeof v !== 'string') return { text: FORM_TEXTS.required };
      return v.length > field.max_length
        ? { text: FORM_TEXTS.tooLong, number: field.max_length }
        : null;
    case 'number':
      if (typeof v !== 'number') return { text: FORM_TEXTS.number };
      if (field.min !== null && v < field.min)
        return { text: FORM_TEXTS.atLeast, number: field.min };
      if (field.max !== null && v > field.max)
        return { text: FORM_TEXTS.atMost, number: field.max };
      return null;
    case 'select':
      return typeof v === 'string' && field.options.some((o) => o.id === v)
        ? null
        : { text: FORM_TEXTS.option };
    case 'multiselect': {
      if (!Array.isArray(v) || v.some((id) => !field.options.some((o) => o.id === id)))
        return { text: FORM_TEXTS.option };
      return field.max_selections !== null && v.length > field.max_selections
        ? { text: FORM_TEXTS.multiple }
        : null;
    }
    case 'checkbox':
      return typeof v === 'boolean' ? null : { text: FORM_TEXTS.required };
    case 'datetime':
      return typeof v === 'number' && v >= EARLIEST && v <= LATEST
        ? null
        : { text: FORM_TEXTS.time };
    case 'photo':
    case 'signature': {
      const most = field.type === 'signature' ? 1 : field.max_files;
      if (!Array.isArray(v)) return { text: FORM_TEXTS.file };
      return v.length > most ? { text: FORM_TEXTS.atMost, number: most } : null;
    }
  }
}

/** Every problem of an entry's answers, by field id. */
export function entryProblems(
  fields: readonly FormField[],
  values: FormValues,
): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  for (const field of fields) {
    const problem = fieldProblem(field, values[field.id]);
    if (problem !== null) problems[field.id] = problem;
  }
  return problems;
}

/** A problem in English, its number filled in (the server's 422). */
export function problemText(problem: FieldProblem): string {
  return problem.number === undefined
    ? problem.text
    : problem.text.replace('{number}', String(problem.number));
}

/**
 * The answers with every formula field computed from the others (null where a field it reads is
 * empty), and only the form's fields kept: what an entry stores.
 */
export function computeEntry(fields: readonly FormField[], values: FormValues): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    if (f.type !== 'formula' && values[f.id] !== undefined) out[f.id] = values[f.id] ?? null;
  }
  const numeric = new Map(
    fields.filter((f) => f.type === 'number' || f.type === 'formula').map((f) => [f.id, f]),
  );
  const read = (id: string): number | null => {
    const v = out[id];
    return typeof v === 'number' ? v : null;
  };
  for (const f of fields) {
    if (f.type !== 'formula') continue;
    const order = formulaOrder(f.id, numeric) ?? [];
    for (const id of order) {
      if (out[id] !== undefined) continue;
      const tree = parseFormula(numeric.get(id)?.formula ?? '');
      out[id] = tree === null ? null : evaluateFormula(tree, read);
    }
    out[f.id] ??= null;
  }
  return out;
}

/**
 * What a typed number field's text is as a value: a number, null for an empty text, or a problem
 * ('Must be a number' when required, 'Must be a numerical value or empty' otherwise). A comma
 * is read as the decimal point (German keyboards).
 */
export function readNumberInput(
  field: Pick<FormField, 'required'>,
  text: string,
): { value: number | null } | { problem: FieldProblem } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  const value = Number(trimmed.replace(',', '.'));
  if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)(e[-+]?\d+)?$/i.test(trimmed) || !Number.isFinite(value))
    return { problem: { text: field.required ? FORM_TEXTS.number : FORM_TEXTS.numberOrEmpty } };
  return { value };
}

/** Schedules of a task: once, every N days/weeks/months, or every `step` of a counter stream. */
export const taskScheduleSchema = /* @__PURE__ */ deferred(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('once'), due_at: z.number().int().min(0).nullable().default(null) }),
    z.object({
      kind: z.literal('date'),
      every: z.number().int().min(1, FORM_TEXTS.taskStep).max(1000),
      unit: z.enum(['day', 'week', 'month']),
      start_at: z.number().int().min(0),
    }),
    z.object({
      kind: z.literal('counter'),
      /** The counter's stream by name (an asset's own, or the one each asset of a template has). */
      stream_name: z
        .string({ error: FORM_TEXTS.taskCounter })
        .trim()
        .min(1, FORM_TEXTS.taskCounter)
        .max(250),
      step: z.number({ error: FORM_TEXTS.taskStep }).finite().positive(FORM_TEXTS.taskStep),
      /** The counter's value the steps count from (the first is due at start + step). */
      start: z.number().finite().default(0),
    }),
  ]),
);
export type TaskSchedule = z.infer<typeof taskScheduleSchema>;

/** A task's targets are checked where it is written (the server's task rules): at least one. */
export const taskAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    form_id: idField,
    /** The assets it is for, and the templates whose assets it is for. */
    asset_ids: z.array(idField).max(1000).default([]),
    template_ids: z.array(idField).max(100).default([]),
    schedule: taskScheduleSchema,
    /** Who is due to do it (members' user ids); none: anyone who fills forms. */
    assignee_ids: z.array(z.string().max(64)).max(100).default([]),
    active: z.boolean().default(true),
  }),
);
export type TaskAttributes = z.infer<typeof taskAttributesSchema>;

export const taskModel = {
  type: 'task',
  collection: 'tasks',
  parentType: 'account',
  attributes: taskAttributesSchema,
  refs: { form_id: 'form' },
  permissions: ownPermissions('task'),
  sortField: 'name',
} as const satisfies ModelDefinition<'task', typeof taskAttributesSchema>;

/**
 * Where a task stands on one asset: the server's alone (tasks/task-states.ts), made and moved as
 * entries arrive, counters pass their steps and dates come.
 */
export const taskStateAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    task_id: idField,
    asset_id: idField,
    due: z.boolean().default(false),
    /** Since when it is due (null: not due). */
    due_since: z.number().int().nullable().default(null),
    /** When a dated task is next due, or the counter value a counted one is next due at. */
    next_at: z.number().int().nullable().default(null),
    next_counter: z.number().nullable().default(null),
    /** The counter's latest value the server knows. */
    counter_value: z.number().nullable().default(null),
    last_entry_id: z.string().nullable().default(null),
    last_entry_at: z.number().int().nullable().default(null),
  }),
);
export type TaskStateAttributes = z.infer<typeof taskStateAttributesSchema>;

export const taskStateModel = {
  type: 'task_state',
  collection: 'task_states',
  parentType: 'asset',
  parentField: 'asset_id',
  attributes: taskStateAttributesSchema,
  permissions: viewEditPermissions('task::view', 'task::edit'),
  sortField: 'task_id',
  serverFields: [
    'due',
    'due_since',
    'next_at',
    'next_counter',
    'counter_value',
    'last_entry_id',
    'last_entry_at',
  ],
  asset: 'asset_id',
} as const satisfies ModelDefinition<'task_state', typeof taskStateAttributesSchema>;
