import { useMemo } from 'react';
import { useAtomValue } from 'jotai';
import type { LocalModel } from '@plant/sync-worker/api';
import { sessionAtom } from '../../state/session';
import { useLiveQuery } from '../../sync/hooks';

/*
 * What is due for the user (issue 37 item 2): the server's task states (one per task and asset,
 * synced, so offline too) that are due, of tasks for everyone or naming the user. The menu's
 * count and the asset's list read it; no texts here (the menu's chunk imports it).
 */

export interface DueTask {
  readonly state: LocalModel<'task_state'>;
  readonly task: LocalModel<'task'>;
}

/** The tasks due for the signed-in user (of one asset, when given), live. */
export function useDueTasks(assetId?: string): readonly DueTask[] | undefined {
  const userId = useAtomValue(sessionAtom)?.user.id ?? null;
  const states = useLiveQuery({
    type: 'task_state',
    ...(assetId === undefined ? {} : { parent: { type: 'asset', id: assetId } }),
    limit: 1000,
  });
  const tasks = useLiveQuery({ type: 'task', limit: 1000 });
  return useMemo(() => {
    if (states === undefined || tasks === undefined) return undefined;
    const byId = new Map(tasks.items.map((t) => [t.id, t]));
    return states.items.flatMap((state) => {
      const task = byId.get(state.attributes.task_id);
      if (!state.attributes.due || task === undefined || !task.attributes.active) return [];
      const mine =
        task.attributes.assignee_ids.length === 0 ||
        (userId !== null && task.attributes.assignee_ids.includes(userId));
      return mine ? [{ state, task }] : [];
    });
  }, [states, tasks, userId]);
}
