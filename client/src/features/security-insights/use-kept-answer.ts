import { useCallback, useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import type { z } from 'zod';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { callApi } from '../../session/api';
import { activeAccountIdAtom, sessionAtom } from '../../state/session';
import { keep, keptKey, readKept } from './insights-cache';

/** What a page of security insights shows: the server's answer, or the one this browser kept. */
export interface KeptView<T> {
  /** The answer to show; undefined while nothing is known yet (or nothing could be had). */
  readonly data: T | undefined;
  /** Whether `data` is the kept one (the server has not answered, or could not be reached). */
  readonly fromDevice: boolean;
  /** Whether a call to the server is under way. */
  readonly pending: boolean;
  /** Why the last call failed, translated; null when it did not. */
  readonly error: string | null;
  /** Asks the server again. */
  readonly reload: () => void;
}

/**
 * The server's answer to `path`, kept in this browser for the next visit: the kept one shows at
 * once (offline too), the server's replaces it when it comes, and a failed call leaves the kept
 * one with the reason. Per user and account, so nobody sees another's kept answer.
 */
export function useKeptAnswer<T>(page: string, path: string, schema: z.ZodType<T>): KeptView<T> {
  const { i18n } = useLingui();
  const userId = useAtomValue(sessionAtom)?.user.id ?? '';
  const accountId = useAtomValue(activeAccountIdAtom) ?? '';
  const key = keptKey(userId, accountId, page);
  const [view, setView] = useState<Omit<KeptView<T>, 'reload'> & { readonly key: string }>({
    key,
    data: undefined,
    fromDevice: false,
    pending: true,
    error: null,
  });
  const [round, setRound] = useState(0);

  useEffect(() => {
    let current = true;
    // Another page (a period, an account): what was shown goes; asked again: it stays meanwhile.
    setView((v) =>
      v.key === key
        ? { ...v, pending: true }
        : { key, data: undefined, fromDevice: false, pending: true, error: null },
    );
    void readKept(key).then((kept) => {
      if (!current || kept === undefined) return;
      const parsed = schema.safeParse(kept.answer);
      if (!parsed.success) return;
      // Only while the server has not answered: a fresh answer never gives way to the kept one.
      setView((v) =>
        v.data === undefined || v.fromDevice ? { ...v, data: parsed.data, fromDevice: true } : v,
      );
    });
    void callApi('GET', path, schema, { quiet: true }).then((answer) => {
      if (!current) return;
      if ('error' in answer) {
        const error = translateServerText(i18n, callErrorText(answer.error));
        setView((v) => ({ ...v, pending: false, error }));
        return;
      }
      setView({ key, data: answer.data, fromDevice: false, pending: false, error: null });
      void keep(key, answer.data);
    });
    return () => {
      current = false;
    };
    // `i18n` and `schema` are stable for the page; the answer is asked again per key and round.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, path, round]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  const { data, fromDevice, pending, error } = view;
  return { data, fromDevice, pending, error, reload };
}
