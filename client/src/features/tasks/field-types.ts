import { useLingui } from '@lingui/react/macro';
import type { FormFieldType } from '@plant/shared-schema';

/** The field types' names as the designer shows them. */
export function useFieldTypeLabels(): Record<FormFieldType, string> {
  const { t } = useLingui();
  return {
    text: t`Text`,
    number: t`Number`,
    select: t`Selection`,
    multiselect: t`Multiple selection`,
    checkbox: t`Checkbox`,
    datetime: t`Date and time`,
    photo: t`Photo`,
    signature: t`Signature`,
    formula: t`Computed (formula)`,
  };
}
