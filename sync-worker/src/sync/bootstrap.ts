import {
  deferred,
  apiPaths,
  envelopeSchema,
  snapshotPageSchema,
  type SnapshotFirst,
} from '@plant/shared-schema';
import type { Logger } from '../log';
import type { ApiClient, ApiError } from '../transport/http';
import { readLog } from './log-reader';
import type { Replica } from './replica';

/** Models per snapshot page: large pages, few round trips, bounded memory. */
export const SNAPSHOT_PAGE = 2000;
/** The first page is small: it comes back, and is written, before the user waits long. */
export const FIRST_SNAPSHOT_PAGE = 250;

const pageAnswer = /* @__PURE__ */ deferred(() => envelopeSchema(snapshotPageSchema));

export type BootstrapOutcome =
  { readonly ok: true } | { readonly ok: false; readonly error: ApiError };

/**
 * Loads an account into an empty (or half-loaded) store (DESIGN.md invariant 5): snapshot pages
 * under the watermark taken before the first one, then the log replayed from the watermark.
 * Each page is committed with the next cursor, so a reload goes on where it stopped; the next page
 * is fetched while one is written. The first page is small, and a page brings the first rows of
 * each list the user looks at (`wanted`) once, so that the screen fills while the rest streams in
 * behind. Those rows are read after the watermark, like every page: the replay covers them. Progress is reported 0 to 100 (the snapshot's total; the
 * replay is the last step).
 */
export async function bootstrap(
  replica: Replica,
  api: ApiClient,
  log: Logger,
  progress: (percent: number) => void,
  pageSize = SNAPSHOT_PAGE,
  wanted: () => readonly SnapshotFirst[] = () => [],
): Promise<BootstrapOutcome> {
  let meta = await replica.meta();
  if (meta.bootstrap === 'done') return { ok: true };
  if (meta.bootstrap === 'none') {
    // A load that starts over must not keep rows of one that stopped before its first page was
    // committed (`first` rows are written ahead of it): they were read under another watermark,
    // so neither the pages nor the replay would remove one deleted since.
    await replica.clearModels();
  }
  if (meta.bootstrap !== 'replay') {
    // Each list the user opens while the load runs is asked for once, with the next page.
    const asked = new Set<string>();
    const fetchPage = (cursor: string | undefined) => {
      const first = wanted().find((w) => !asked.has(JSON.stringify(w)));
      if (first !== undefined) asked.add(JSON.stringify(first));
      const path = apiPaths.snapshot(
        cursor,
        cursor === undefined ? Math.min(pageSize, FIRST_SNAPSHOT_PAGE) : pageSize,
        first,
      );
      const answer = api.get(path, {
        schema: pageAnswer,
        quiet: true,
        background: true,
      });
      // Awaited later, or never when the bootstrap stops before it: not an unhandled rejection.
      answer.catch(() => undefined);
      return answer;
    };
    let next = fetchPage(
      meta.bootstrap === 'snapshot' ? (meta.snapshot_cursor ?? undefined) : undefined,
    );
    let loaded = 0;
    progress(0);
    for (;;) {
      const answer = await next;
      if (!answer.ok) return answer;
      const page = answer.data.data;
      // The next page is on its way while this one is written: the network and the server's
      // work overlap the store's.
      if (page.next_cursor !== null) next = fetchPage(page.next_cursor);
      // The first rows of the list on screen, in its order, before the page (issue 13).
      if (page.first !== undefined && page.first.length > 0) await replica.putModels(page.first);
      loaded += page.models.length;
      await replica.putModels(page.models, {
        bootstrap: 'snapshot',
        snapshot_cursor: page.next_cursor,
        watermark_seq: page.watermark.seq,
        watermark_ts: page.watermark.ts,
      });
      progress(Math.min(95, Math.floor((loaded / Math.max(page.total, 1)) * 95)));
      if (page.next_cursor === null) {
        await replica.snapshotDone(page.watermark);
        break;
      }
    }
    meta = await replica.meta();
  }
  // The replay: every page of the log from the watermark, however many (no resync threshold
  // here: a busy account would otherwise bootstrap for ever).
  let from = meta.last_ts;
  for (;;) {
    const answer = await readLog(api, from);
    if (!answer.ok) return answer;
    const { data, more, through } = answer.data;
    const result = await replica.receive(data.map((d) => d.msg));
    if (result.gap !== undefined) {
      log.error('the change log has a gap during replay', { seq: result.gap.seq });
    }
    if (!more || through === null) break;
    from = through.ts;
  }
  await replica.settleConfirmed();
  await replica.bootstrapDone();
  progress(100);
  return { ok: true };
}
