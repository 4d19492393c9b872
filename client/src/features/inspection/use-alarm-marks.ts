import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { z } from 'zod';
import { deferred, alarmEventSchema, apiPaths, type AlarmEvent } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { callApi } from '../../session/api';
import { syncStatusAtom } from '../../sync/status';
import { marksWithin, reachesBack, statusEvents, type Mark } from './inspection-marks';

const pageSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    events: z.array(alarmEventSchema),
    before: z.number().nullable(),
  }),
);

/** Events per history page, and at most this many pages for one window (a storm of raises). */
const PAGE = 500;
const MAX_PAGES = 4;

/** One page of the alarm's history, newest first, older than `before`. */
function readPage(alarmId: string, before: number) {
  return callApi(
    'GET',
    `${apiPaths.alarmHistory(alarmId)}?limit=${PAGE}&before=${before}`,
    pageSchema,
    { quiet: true },
  );
}

/**
 * The alarm's transitions in the window: `server`, read from its history; `device`, the server
 * could not be reached and only the synced status's latest raise, clear and acknowledgement
 * are known; `none` without an alarm (or the right to see alarms).
 */
export type AlarmMarks =
  | { readonly source: 'none' | 'loading'; readonly marks: readonly Mark[] }
  | { readonly source: 'server' | 'device'; readonly marks: readonly Mark[] };

/**
 * Reads the alarm's history around the window (newest first, page by page back past its
 * start), again when the alarm's status moves (a new raise or clear while the page is open) and
 * when the connection comes back. Only once `after` (the charts have their values): a request
 * the server answers while the charts load costs their first paint as much as work on its path
 * (bench CONTEXT, the dashboard's first paint).
 */
export function useAlarmMarks(
  alarm: LocalModel<'alarm'> | null,
  from: number,
  to: number,
  after: boolean,
): AlarmMarks {
  const connected = useAtomValue(syncStatusAtom).connection.name === 'connected';
  const status = alarm?.attributes.status ?? null;
  const refresh = `${status?.state}:${status?.raised_at}:${status?.cleared_at}:${status?.acknowledged_at}`;
  const alarmId = alarm?.id ?? null;
  const [read, setRead] = useState<AlarmMarks>();
  const key = `${alarmId}|${from}|${to}`;

  useEffect(() => {
    if (alarmId === null || !after) return;
    let live = true;
    void (async () => {
      const events: AlarmEvent[] = [];
      let before: number | null = to + 1;
      for (let page = 0; page < MAX_PAGES && before !== null; page++) {
        const answer = await readPage(alarmId, before);
        if (!live) return;
        if ('error' in answer) {
          const marks = marksWithin(statusEvents(status), from, to);
          setRead({ source: 'device', marks });
          return;
        }
        events.push(...answer.data.events);
        if (reachesBack(answer.data.before, from)) break;
        before = answer.data.before;
      }
      setRead({ source: 'server', marks: marksWithin(events, from, to) });
    })();
    return () => {
      live = false;
    };
    // `status` is read through `refresh`; `key` stands for the alarm and the window.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, refresh, connected, after]);

  if (alarmId === null) return { source: 'none', marks: [] };
  // A new window keeps the marks it had until its own are read (no flicker while shifting).
  return read ?? { source: 'loading', marks: [] };
}
