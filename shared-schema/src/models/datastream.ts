import { z } from 'zod';
import { idField, modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';

const streamPermissions = {
  view: 'datastream::view',
  create: 'datastream::create',
  update: 'datastream::edit',
  delete: 'datastream::delete',
} as const;

/** A folder of data streams on an asset: collapsible, open by default or not, ordered. */
export const datastreamGroupAttributesSchema = z.object({
  asset_id: idField,
  name: modelNameField,
  collapsible: z.boolean().default(true),
  open_by_default: z.boolean().default(true),
  order: z.number().int().min(0).max(1_000_000).default(0),
});
export type DatastreamGroupAttributes = z.infer<typeof datastreamGroupAttributesSchema>;

export const datastreamGroupModel = {
  type: 'datastreamgroup',
  collection: 'datastreamgroups',
  parentType: 'asset',
  parentField: 'asset_id',
  attributes: datastreamGroupAttributesSchema,
  refs: { asset_id: 'asset' },
  permissions: streamPermissions,
  sortField: 'order',
  ordered: true,
  asset: 'asset_id',
} as const satisfies ModelDefinition<'datastreamgroup', typeof datastreamGroupAttributesSchema>;

export const DATASTREAM_TYPES = ['state', 'number', 'boolean', 'text'] as const;

/** Spec 001 §5: pre-processing code returns a value, ends statements with ';', uses $variables. */
export const CODE_NOT_VALID = 'This code is not valid';
/** Why code is not valid: the rule it breaks (the server's check says which). */
export const CODE_REASONS = {
  tooLong: 'The code is longer than 10,000 characters.',
  unreadable: 'A string, comment or bracket is not closed, or the brackets are nested too deeply.',
  noReturn: 'The code must end by returning a value.',
  names: 'Variables must start with $.',
  semicolons: 'Every statement must end with a semicolon.',
} as const;

/** Why the sandbox did not turn a value into one (shown with 'This code is not valid'). */
export const CODE_RUN_TEXTS = {
  tooSlow: 'The code took too long.',
  tooMuchMemory: 'The code used too much memory.',
  tooDeep: 'The code nested its calls too deeply.',
  noValidValue: 'The code returned no valid value.',
  textTooLong: 'The code returned a text that is too long.',
  /** Followed by the error the code threw, e.g. "ReferenceError: x is not defined". */
  failed: 'The code failed: ',
  notRun: 'The code could not be run.',
} as const;

/** What a stream's type expects of a value (ingest's refusals, the code trial's answers). */
export const VALUE_TYPE_TEXTS = {
  number: 'A number was expected.',
  state: 'A state number was expected.',
  boolean: 'True or false was expected.',
  text: 'A text was expected.',
} as const;

/** A try of pre-processing code on one value (the stream's latest when none is given). */
export const preprocessingTrySchema = z.object({
  code: z.string().max(10_000),
  value: z.union([z.number().finite(), z.string().max(10_000), z.boolean()]).optional(),
});
export type PreprocessingTry = z.infer<typeof preprocessingTrySchema>;

/** Its answer: the value tried and what the code made of it (null: the code dropped it). */
export const preprocessingTryAnswerSchema = z.object({
  input: z.tuple([z.number(), z.union([z.number(), z.string(), z.boolean()])]),
  output: z.union([z.number(), z.string(), z.boolean()]).nullable(),
});
export type PreprocessingTryAnswer = z.infer<typeof preprocessingTryAnswerSchema>;

/** The stream has no value yet and none was given to try the code on. */
export const NO_VALUE_TO_TRY = 'This data stream has no value yet: enter one to try the code.';
export function preprocessingProblems(code: string): string | undefined {
  const statements = code
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('//'));
  if (statements.length === 0) return undefined;
  const last = statements.at(-1) ?? '';
  if (!/^return\b/.test(last)) return CODE_NOT_VALID;
  if (statements.some((l) => !/[;{}]$/.test(l))) return CODE_NOT_VALID;
  const declared = code.match(/\b(?:let|const|var)\s+([A-Za-z_$][\w$]*)/g) ?? [];
  if (declared.some((d) => !/\s\$/.test(d))) return CODE_NOT_VALID;
  return undefined;
}

/** A data stream (spec 001 §3): name, unit, type, visualisation range, state texts, code. */
export const datastreamAttributesSchema = z.object({
  asset_id: idField,
  group_id: idField,
  name: modelNameField,
  unit: z.string().max(50).default(''),
  type: z.enum(DATASTREAM_TYPES).default('number'),
  vis_min: z.number().finite().nullable().default(null),
  vis_max: z.number().finite().nullable().default(null),
  state_texts: z.record(z.string().max(50), z.string().max(250)).default({}),
  preprocessing: z
    .string()
    .max(10_000)
    .default('')
    .refine((code) => preprocessingProblems(code) === undefined, CODE_NOT_VALID),
});
export type DatastreamAttributes = z.infer<typeof datastreamAttributesSchema>;

export const datastreamModel = {
  type: 'datastream',
  collection: 'datastreams',
  parentType: 'datastreamgroup',
  parentField: 'group_id',
  attributes: datastreamAttributesSchema,
  refs: { asset_id: 'asset', group_id: 'datastreamgroup' },
  fromParent: ['asset_id'],
  permissions: streamPermissions,
  sortField: 'name',
  asset: 'asset_id',
} as const satisfies ModelDefinition<'datastream', typeof datastreamAttributesSchema>;
