import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { Result } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../i18n/server-texts';

/**
 * A worker write's outcome as a text to show: null when it was taken (queued or sent; what the
 * server refuses later comes back through the sync feedback), else the first field's message or
 * the error's, translated. `took` answers whether the write was taken; `clear` forgets the text.
 */
export function useWriteOutcome(): [
  error: string | null,
  took: (answer: Result<unknown>) => boolean,
  clear: () => void,
] {
  const { i18n } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const took = (answer: Result<unknown>) => {
    if ('error' in answer) {
      const field = Object.values(answer.error.fields ?? {})[0]?.[0];
      setError(translateServerText(i18n, field ?? callErrorText(answer.error)));
      return false;
    }
    setError(null);
    return true;
  };
  return [error, took, () => setError(null)];
}
