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
