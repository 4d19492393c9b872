import type { z } from 'zod';

/** A form's problems: at most one message per field (English source text, translated when shown). */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * The first message per field of a failed parse, for the fields the form shows. The shared schemas
 * stop an empty field at its one "Please enter …" message, so the first is the one that matters.
 */
export function firstIssuePerField<K extends string>(
  issues: readonly z.core.$ZodIssue[],
  fields: readonly K[],
): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const issue of issues) {
    // A nested field by its dotted path (`window.from`); a flat form's fields are its first part.
    const path = issue.path.map(String).join('.');
    const field = fields.find((f) => f === path || f === issue.path[0]);
    if (field !== undefined && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

/** Each field's message in the chosen language (server and schema texts, server-texts.ts). */
export function translatedErrors<K extends string>(
  errors: FieldErrors<K>,
  translate: (text: string) => string,
): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const [field, message] of Object.entries(errors) as [K, string | undefined][]) {
    if (message !== undefined) out[field] = translate(message);
  }
  return out;
}

/**
 * The server's per-field 422 messages (`errors` of the envelope) for the fields the form shows.
 * `aliases` maps the wire name to the form's field where they differ (the token request's
 * `username` is the form's `email`). Messages for fields the form does not show are left out: the
 * caller shows the answer's message for those.
 */
export function serverFieldErrors<K extends string>(
  fields: Readonly<Record<string, readonly string[]>> | undefined,
  formFields: readonly K[],
  aliases: Readonly<Record<string, K>> = {},
): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  if (fields === undefined) return errors;
  for (const [wire, messages] of Object.entries(fields)) {
    const field = aliases[wire] ?? formFields.find((f) => f === wire);
    const first = messages[0];
    if (field !== undefined && first !== undefined && errors[field] === undefined) {
      errors[field] = first;
    }
  }
  return errors;
}

/** The first field, in the form's order, that has a problem. */
export function firstFieldWithError<K extends string>(
  errors: FieldErrors<K>,
  fields: readonly K[],
): K | undefined {
  return fields.find((f) => errors[f] !== undefined);
}
