import { useEffect, useMemo, useState } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { z } from 'zod';
import {
  deferred,
  apiPaths,
  inheritedTextsSchema,
  type InheritedTexts,
  type Language,
} from '@plant/shared-schema';
import { useCan } from '../permissions/permissions';
import { activeAccountIdAtom } from '../state/session';
import { readJson, STORAGE_KEYS, writeJson } from '../state/storage';
import { useLiveModel, useLiveQuery } from '../sync/hooks';
import { syncWorker } from '../sync/worker';
import { setTextOverrides } from './i18n';
import { inheritedWordsAtom } from './words-atoms';

const keptSchema = /* @__PURE__ */ deferred(() =>
  z.object({ account: z.string(), words: inheritedTextsSchema }),
);

/** The words this device kept of the account last worked in (for a start offline). */
function stored(accountId: string): InheritedTexts {
  const parsed = keptSchema.safeParse(readJson(STORAGE_KEYS.accountWords));
  return parsed.success && parsed.data.account === accountId ? parsed.data.words : [];
}

/**
 * The account's words over the product's texts (issue 36 item 2), for every member: those of
 * the account and the accounts above it as the server merged them (GET translations/inherited,
 * read again whenever the account model's `texts_version` moves, kept on the device for the next
 * start offline), and over them this account's own translations from the local store for who
 * edits them (a change shows at once, offline too). Renders nothing.
 */
export function AccountWords() {
  const accountId = useAtomValue(activeAccountIdAtom) ?? '';
  const account = useLiveModel('account', accountId);
  const version = account.name === 'found' ? account.model.attributes.texts_version : null;
  const can = useCan();
  const own = useLiveQuery(
    can('translation::view') ? { type: 'translation' as const, limit: 10_000 } : null,
  );
  const [inherited, setInherited] = useState<InheritedTexts>(() => stored(accountId));
  const share = useSetAtom(inheritedWordsAtom);
  useEffect(() => share(inherited), [share, inherited]);

  useEffect(() => {
    setInherited(stored(accountId));
  }, [accountId]);

  useEffect(() => {
    if (accountId === '' || version === null) return;
    let closed = false;
    void syncWorker()
      .http.call('GET', apiPaths.inheritedTexts(), undefined, { quiet: true })
      .then((answer) => {
        if (closed || 'error' in answer) return;
        const parsed = inheritedTextsSchema.safeParse(
          (answer.data as { data?: unknown } | null)?.data,
        );
        if (!parsed.success) return;
        writeJson(STORAGE_KEYS.accountWords, { account: accountId, words: parsed.data });
        setInherited(parsed.data);
      });
    return () => {
      closed = true;
    };
  }, [accountId, version]);

  const words = useMemo(() => {
    const merged = new Map<string, Partial<Record<Language, string>>>();
    const add = (key: string, texts: Readonly<Record<string, string | undefined>>) => {
      const next = { ...(merged.get(key) ?? {}) };
      for (const [lang, text] of Object.entries(texts)) {
        if (text !== undefined && text.trim() !== '') next[lang as Language] = text;
      }
      merged.set(key, next);
    };
    for (const { key, texts } of inherited) add(key, texts);
    for (const model of own?.items ?? []) add(model.attributes.key, model.attributes.texts);
    return merged;
  }, [inherited, own]);

  useEffect(() => setTextOverrides(words), [words]);
  return null;
}
