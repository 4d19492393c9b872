import { useEffect, useState } from 'react';

/**
 * The fields of a form's values that differ from what the form started from (`base`: the model
 * as the form opened, or as its last save left it). A form that writes only these leaves the
 * other fields to whoever changed them meanwhile: sending every field wrote a field's old value
 * over another user's change of it.
 */
export function changedFields<T extends object>(values: T, base: Partial<T>): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([field, value]) => JSON.stringify(value) !== JSON.stringify(base[field as keyof T]),
    ),
  ) as Partial<T>;
}

/**
 * For a page form that shows the stored model while it has no edits of its own (`dirty`, from
 * `useUnsaved`): the stored attributes its draft was taken from (`stored` must keep its identity
 * while the model is unchanged), `changes` of the checked values from them, and `wrote` to take
 * a written change into them (a later save then starts from it).
 */
export function useFormBase<T extends object>(
  stored: T,
  dirty: boolean,
): {
  readonly changes: <V extends Partial<T>>(values: V) => Partial<V>;
  readonly wrote: (change: Partial<T>) => void;
} {
  const [base, setBase] = useState<Partial<T>>(stored);
  useEffect(() => {
    if (!dirty) setBase(stored);
  }, [stored, dirty]);
  return {
    changes: (values) => changedFields(values, base as Partial<typeof values>),
    wrote: (change) => setBase((was) => ({ ...was, ...change })),
  };
}
