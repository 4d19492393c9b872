import { useCallback, useRef, useState, type ChangeEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { z } from 'zod';
import { firstFieldWithError, firstIssuePerField, type FieldErrors } from './form-errors';
import { translateServerText } from '../../i18n/server-texts';

/** A form's check: the parsed values to send, or a message per field. */
export type Validate<K extends string, T> = (
  values: Readonly<Record<K, string>>,
) => { readonly data: T } | { readonly errors: FieldErrors<K> };

/** A check by a shared schema (the same one the server parses the request with). */
export function bySchema<K extends string, T>(
  schema: z.ZodType<T>,
  fields: readonly K[],
): Validate<K, T> {
  return (values) => {
    const parsed = schema.safeParse(values);
    return parsed.success
      ? { data: parsed.data }
      : { errors: firstIssuePerField(parsed.error.issues, fields) };
  };
}

export interface FormOptions<K extends string, T> {
  /** The fields in screen order: the first one with a problem gets the focus. */
  readonly fields: readonly K[];
  readonly initial: Readonly<Record<K, string>>;
  readonly validate: Validate<K, T>;
  /** Fields checked again when another one changes (the repeated password when the first does). */
  readonly dependents?: Partial<Readonly<Record<K, readonly K[]>>>;
}

/** What an input of the form takes (Mantine's TextInput and PasswordInput). */
export interface FieldProps {
  readonly name: string;
  readonly value: string;
  readonly onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  readonly error: string | undefined;
  /** Mantine sets it on a TextInput from `error`, but not on PasswordInput's inner input. */
  readonly 'aria-invalid': true | undefined;
  readonly ref: (element: HTMLInputElement | null) => void;
}

/**
 * A small accessible form: values, one message per field shown under it (Mantine ties it to the
 * input with aria-describedby and marks the input aria-invalid), the focus on the first field
 * with a problem, and after the first attempt each change checked again so that a message goes
 * as soon as its problem does. Messages are kept as English source texts and translated when
 * shown, so a language change applies to them too.
 */
export function useForm<K extends string, T>(options: FormOptions<K, T>) {
  const { fields, validate, dependents } = options;
  const { i18n } = useLingui();
  const [values, setValues] = useState<Readonly<Record<K, string>>>(options.initial);
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const attempted = useRef(false);
  const inputs = useRef(new Map<K, HTMLInputElement>());

  /** Shows the messages and moves the focus to the first field with one; false when none. */
  const showErrors = useCallback(
    (next: FieldErrors<K>): boolean => {
      setErrors(next);
      const first = firstFieldWithError(next, fields);
      if (first === undefined) return false;
      // After React has rendered the message, so that a screen reader reads it with the field.
      requestAnimationFrame(() => inputs.current.get(first)?.focus());
      return true;
    },
    [fields],
  );

  /** Checks every field for a submit: the values to send, or null (messages shown, focus moved). */
  const check = useCallback((): T | null => {
    attempted.current = true;
    const result = validate(values);
    if ('errors' in result) {
      showErrors(result.errors);
      return null;
    }
    setErrors({});
    return result.data;
  }, [showErrors, validate, values]);

  const field = (name: K): FieldProps => {
    const message = errors[name];
    return {
      name,
      value: values[name],
      onChange: (event) => {
        const next = { ...values, [name]: event.currentTarget.value };
        setValues(next);
        if (!attempted.current) return;
        const result = validate(next);
        const found: FieldErrors<K> = 'errors' in result ? result.errors : {};
        setErrors((shown) => {
          const updated: FieldErrors<K> = { ...shown };
          for (const f of [name, ...(dependents?.[name] ?? [])]) {
            if (f !== name && shown[f] === undefined) continue;
            const message = found[f];
            if (message === undefined) delete updated[f];
            else updated[f] = message;
          }
          return updated;
        });
      },
      error: message === undefined ? undefined : translateServerText(i18n, message),
      'aria-invalid': message === undefined ? undefined : true,
      ref: (element) => {
        if (element === null) inputs.current.delete(name);
        else inputs.current.set(name, element);
      },
    };
  };

  const focus = useCallback((name: K) => inputs.current.get(name)?.focus(), []);

  return { values, field, check, showErrors, focus };
}
