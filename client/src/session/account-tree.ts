import { atom } from 'jotai';
import { accountTreeSchema, apiPaths, type AccountTree } from '@plant/shared-schema';
import { appStore } from '../state/store';
import { callApi } from './api';

/**
 * The account tree of GET user/accounts with each account's user and asset counts (issue 30
 * item 13): ONE source for the account switcher and the account list, so the two never show
 * different counts for the same account. Before, each read it on its own (the switcher at every
 * opening, the list once per tree shape), so a member or asset added since showed in one and
 * not the other. Whoever reads it again updates both. What the counts mean is the server's one
 * definition (`AccountService.tree`: distinct members through any role, the account's assets).
 * `user` says whose tree it is: another sign-in never shows the last user's.
 */
export type AccountTreeState =
  | { readonly name: 'idle' }
  | { readonly name: 'loading'; readonly user: string; readonly nodes: AccountTree | null }
  | { readonly name: 'loaded'; readonly user: string; readonly nodes: AccountTree }
  | { readonly name: 'failed'; readonly user: string; readonly nodes: AccountTree | null };

export const accountTreeAtom = atom<AccountTreeState>({ name: 'idle' });

let reads = 0;

/** Reads the tree again (a quiet call: offline, the last answer stays and says it failed). */
export async function loadAccountTree(user: string): Promise<void> {
  const read = ++reads;
  const kept = (prev: AccountTreeState) =>
    'nodes' in prev && prev.user === user ? prev.nodes : null;
  appStore.set(accountTreeAtom, (prev) => ({ name: 'loading', user, nodes: kept(prev) }));
  const answer = await callApi('GET', apiPaths.userAccounts(), accountTreeSchema, { quiet: true });
  // A later read answers for both screens; an earlier answer arriving after it is stale.
  if (read !== reads) return;
  appStore.set(accountTreeAtom, (prev) =>
    'error' in answer
      ? { name: 'failed', user, nodes: kept(prev) }
      : { name: 'loaded', user, nodes: answer.data },
  );
}

/** The tree's nodes for this user ([] before the first answer). */
export function treeNodes(state: AccountTreeState, user: string | undefined): AccountTree {
  return 'nodes' in state && state.user === user ? (state.nodes ?? []) : [];
}

/** An account's counts as both screens show them; undefined when the tree has not told them. */
export function accountCounts(
  nodes: AccountTree,
  accountId: string,
): { readonly users: number; readonly assets: number } | undefined {
  const node = nodes.find((n) => n.id === accountId);
  return node === undefined
    ? undefined
    : { users: node.value.userCount, assets: node.value.assetCount };
}
