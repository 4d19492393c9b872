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
 * while the model is unchanged). `save` writes the checked values' changes from them through
 * `write` (which answers whether the write was taken) and takes a written change into them, so a
 * later save starts from it; nothing changed writes nothing.
 */
export function useFormBase<T extends object>(
  stored: T,
  dirty: boolean,
): {
  readonly save: <V extends Partial<T>>(
    values: V,
    write: (change: Partial<V>) => Promise<boolean>,
  ) => Promise<boolean>;
} {
  const [base, setBase] = useState<Partial<T>>(stored);
  useEffect(() => {
    if (!dirty) setBase(stored);
  }, [stored, dirty]);
  const changes = <V extends Partial<T>>(values: V) => changedFields(values, base as Partial<V>);
  const wrote = (change: Partial<T>) => setBase((was) => ({ ...was, ...change }));
  return {
    save: async (values, write) => {
      const change = changes(values);
      if (Object.keys(change).length === 0) return true;
      if (!(await write(change))) return false;
      wrote(change as Partial<T>);
      return true;
    },
  };
}
