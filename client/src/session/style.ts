import { apiPaths } from '@plant/shared-schema';
import type { StoredSession } from '../state/session';
import { syncWorker } from '../sync/worker';

const STYLE_ID = 'account-style';

/**
 * The active account's colours, title and logos (GET style, CSS custom properties) in a <style>
 * of the page; the shell reads them as var(--account-color1) and so on. Offline, the last one
 * applied stays; the title comes from the stored account.
 */
export async function applyAccountStyle(session: StoredSession): Promise<void> {
  const account = session.user.activeAccount;
  document.title = account?.theme.title ?? account?.name ?? 'Machine Platform';
  if (account === null) return;
  const answer = await syncWorker().http.call('GET', apiPaths.style(account.id), undefined, {
    quiet: true,
    text: true,
  });
  if ('error' in answer || typeof answer.data !== 'string') return;
  let element = document.getElementById(STYLE_ID);
  if (element === null) {
    element = document.createElement('style');
    element.id = STYLE_ID;
    document.head.append(element);
  }
  element.textContent = answer.data;
}
