import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import {
  mayUseApp,
  type OAuthClientView,
  type RoleView,
  type ScopeView,
  type TokenWithClient,
} from '@plant/shared-schema';
import type { WorkerError } from '@plant/sync-worker/api';
import { syncStatusAtom } from '../../sync/status';
import { developerApi } from './developer-api';

/** Everything the access tokens page shows, read from the server at once. */
export interface DeveloperData {
  /** The user's roles in the active account: what a token may act with. */
  readonly roles: readonly RoleView[];
  readonly scopes: readonly ScopeView[];
  readonly tokens: readonly TokenWithClient[];
  readonly clients: readonly OAuthClientView[];
  /** Tokens the user gave third-party applications (the Authorized Applications). */
  readonly apps: readonly TokenWithClient[];
}

export type DeveloperState =
  | { readonly name: 'loading' }
  /** No answer: offline or the server is down. */
  | { readonly name: 'unreachable' }
  | { readonly name: 'failed'; readonly error: WorkerError }
  /** `stale`: a later read got no answer; the lists shown are the last ones read. */
  | { readonly name: 'loaded'; readonly data: DeveloperData; readonly stale: boolean };

/**
 * Reads the page's lists from the server (they are not synced: the page needs the network). Read
 * again by `reload` after every change, and when the sync's connection comes back. A reload keeps
 * the lists on screen until its answers are in, and after a failed reload too (marked stale).
 */
export function useDeveloperData(enabled: boolean) {
  const [state, setState] = useState<DeveloperState>({ name: 'loading' });
  const connected = useAtomValue(syncStatusAtom).connection.name === 'connected';
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const run = ++latest.current;
    const [user, scopes, tokens, clients, apps] = await Promise.all([
      developerApi.currentUser(),
      developerApi.scopes(),
      developerApi.personalTokens(),
      developerApi.clients(),
      developerApi.appTokens(),
    ]);
    if (run !== latest.current) return;
    for (const answer of [user, scopes, tokens, clients, apps]) {
      if ('error' in answer) {
        const { error } = answer;
        // Lists on screen stay (an open dialog may be showing a token for the only time).
        setState((was) =>
          was.name === 'loaded'
            ? { ...was, stale: true }
            : error.kind === 'network'
              ? { name: 'unreachable' }
              : { name: 'failed', error },
        );
        return;
      }
    }
    if ('error' in user || 'error' in scopes || 'error' in tokens) return;
    if ('error' in clients || 'error' in apps) return;
    setState({
      name: 'loaded',
      data: {
        // A norole role gives no access: a token cannot act with it.
        roles: user.data.activeRoles.filter((r) => mayUseApp([r.slug])),
        scopes: scopes.data,
        tokens: tokens.data,
        clients: clients.data,
        apps: apps.data,
      },
      stale: false,
    });
  }, []);

  useEffect(() => {
    if (!enabled) return;
    void reload();
  }, [enabled, reload, connected]);

  useEffect(
    () => () => {
      // Answers that arrive after the page is gone are dropped.
      latest.current += 1;
    },
    [],
  );

  const retry = useCallback(() => {
    setState((was) => (was.name === 'loaded' ? was : { name: 'loading' }));
    void reload();
  }, [reload]);

  return { state, reload, retry };
}
