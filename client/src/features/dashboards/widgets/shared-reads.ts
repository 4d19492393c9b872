import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import { useAtomValue } from 'jotai';
import { useLingui } from '@lingui/react/macro';
import { releaseProxy, type Remote } from 'comlink';
import type {
  AssetValues,
  HistoryQuery,
  HistoryResult,
  LocalModel,
  ManyAnswer,
  ManyWatch,
  ManyWatches,
} from '@plant/sync-worker/api';
import {
  deferred,
  apiPaths,
  streamValuesSchema,
  type DashboardWidget,
  type WidgetType,
} from '@plant/shared-schema';
import { callApi } from '../../../session/api';
import { sessionEpochAtom } from '../../../sync/status';
import { proxy, syncWorker } from '../../../sync/worker';
import { SharedStore } from './shared-store';
import type { WidgetContext } from './widget-props';

/*
 * The widgets' reads through the worker (DESIGN.md §8, §12): a stream's history over the
 * dashboard's range, an asset's latest values, a stream's model. Each is ONE worker watch per
 * key, shared by every widget that shows it (shared-store.ts): twelve widgets over one stream
 * and range cost one read and one cache lookup, not twelve. The watches opened in one task go
 * to the worker as one call and come back in batches (openQueued).
 */

/** Points per stream and range: about twice a wide chart's pixels (M4 keeps min and max). */
export const WIDGET_POINTS = 800;

type ReadSpec =
  | { readonly kind: 'history'; readonly query: HistoryQuery }
  | { readonly kind: 'hours'; readonly stream: string; readonly range: HistoryQuery['range'] }
  | { readonly kind: 'asset'; readonly asset: string }
  | { readonly kind: 'stream'; readonly id: string }
  | { readonly kind: 'asset-model'; readonly id: string };

/** How often an hourly read of a moving range is read again (the current hour grows). */
export const HOURS_EVERY_MS = 60_000;

const hoursAnswer = /* @__PURE__ */ deferred(() => streamValuesSchema.pick({ hours: true }));

/**
 * A stream's hourly rollups from the server (the bar chart's exact sums): read now and, for a
 * moving range, every minute. Offline it answers null (the bars then come from the cached
 * history, as an estimate).
 */
function openHours(
  spec: Extract<ReadSpec, { kind: 'hours' }>,
  onValue: (value: unknown) => void,
): () => void {
  let closed = false;
  const read = async () => {
    const now = Date.now();
    const { from, to } =
      'last' in spec.range ? { from: now - spec.range.last, to: now } : spec.range;
    const answer = await callApi('GET', apiPaths.streamHours(spec.stream, from, to), hoursAnswer, {
      quiet: true,
    });
    if (closed) return;
    onValue('error' in answer ? null : { from, to, hours: answer.data.hours ?? [] });
  };
  void read();
  const timer = 'last' in spec.range ? setInterval(() => void read(), HOURS_EVERY_MS) : undefined;
  return () => {
    closed = true;
    clearInterval(timer);
  };
}

/** A read waiting to be opened with the others of its task. */
interface Queued {
  readonly watch: ManyWatch;
  readonly onValue: (value: unknown) => void;
  closed: boolean;
  batch?: { readonly handle: Promise<Remote<ManyWatches>>; remaining: number };
  index?: number;
}

let queue: Queued[] = [];

/**
 * Opens the reads queued in this task as ONE worker call (values.watchMany): a dashboard's
 * widgets mount together, so its twelve charts cost one call and one answer message, not 24
 * calls and their answers one by one (each a render of its own). Sent when the task's microtasks
 * run, or earlier by `sendQueuedReads`.
 */
function openQueued(): void {
  const items = queue.filter((q) => !q.closed);
  queue = [];
  if (items.length === 0) return;
  const callback = proxy((answers: readonly ManyAnswer[]) => {
    for (const { index, value } of answers) {
      const item = items[index];
      if (item !== undefined && !item.closed) item.onValue(value);
    }
  });
  const handle = syncWorker().values.watchMany(
    items.map((q) => q.watch),
    callback,
  ) as Promise<unknown> as Promise<Remote<ManyWatches>>;
  const batch = { handle, remaining: items.length };
  items.forEach((item, index) => {
    item.batch = batch;
    item.index = index;
  });
}

/**
 * Sends the reads queued so far now. For a passive effect that does long work: an update from
 * an external store (useSyncExternalStore, the live queries) renders, commits and runs its
 * passive effects in one task, so the reads its render opened would wait for that work to end
 * (the event-inspection bench found the 20 charts' making, 80 ms, ahead of their reads).
 */
export function sendQueuedReads(): void {
  openQueued();
}

function closeQueued(item: Queued): void {
  if (item.closed) return;
  item.closed = true;
  const { batch, index } = item;
  if (batch === undefined || index === undefined) return;
  batch.remaining -= 1;
  const last = batch.remaining === 0;
  void batch.handle
    .then(async (handle) => {
      await (last ? handle.stop() : handle.stop([index]));
      if (last) handle[releaseProxy]();
    })
    .catch(() => undefined);
}

function openRead(key: string, onValue: (value: unknown) => void): () => void {
  const spec = JSON.parse(key.slice(key.indexOf('|') + 1)) as ReadSpec;
  if (spec.kind === 'hours') return openHours(spec, onValue);
  const watch: ManyWatch =
    spec.kind === 'history'
      ? { kind: 'history', query: spec.query }
      : spec.kind === 'asset'
        ? { kind: 'asset', asset: spec.asset }
        : spec.kind === 'asset-model'
          ? { kind: 'model', type: 'asset', id: spec.id }
          : // A stream missing from the store answers null: the widget says 'not available'.
            { kind: 'model', type: 'datastream', id: spec.id };
  const item: Queued = { watch, onValue, closed: false };
  queue.push(item);
  if (queue.length === 1) queueMicrotask(openQueued);
  return () => closeQueued(item);
}

/** The one store of the page's widget reads. */
export const widgetReads = new SharedStore(openRead);

/** A read's key: it belongs to the worker session it was made in (sign-in, account switch). */
function readKey(epoch: number, spec: ReadSpec): string {
  return `${epoch}|${JSON.stringify(spec)}`;
}

/** Follows several keys of the store; answers their latest values in the same order. */
function useShared<T>(specs: readonly ReadSpec[]): readonly (T | undefined)[] {
  const epoch = useAtomValue(sessionEpochAtom);
  const joined = specs.map((s) => readKey(epoch, s)).join('\n');
  // Opened as the widget renders, not a frame later when its effects subscribe.
  if (joined !== '') for (const key of joined.split('\n')) widgetReads.touch(key);
  const subscribe = useCallback(
    (onChange: () => void) => {
      const stops =
        joined === '' ? [] : joined.split('\n').map((k) => widgetReads.follow(k, onChange));
      return () => {
        for (const stop of stops) stop();
      };
    },
    [joined],
  );
  const last = useRef<{ key: string; versions: string; values: readonly (T | undefined)[] }>(
    undefined,
  );
  const snapshot = useCallback(() => {
    const keys = joined === '' ? [] : joined.split('\n');
    const entries = keys.map((k) => widgetReads.get(k));
    const versions = entries.map((e) => e.version).join(',');
    const was = last.current;
    if (was !== undefined && was.key === joined && was.versions === versions) return was.values;
    const values = entries.map((e) => e.value as T | undefined);
    last.current = { key: joined, versions, values };
    return values;
  }, [joined]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * The history read of a dashboard's range: a relative range is the worker's moving window (one
 * key while it moves on), a fixed one its span.
 */
export function historyRange(
  context: Pick<WidgetContext, 'range' | 'live'>,
): HistoryQuery['range'] {
  const { from, to } = context.range;
  if (context.live) return { last: Math.max(60_000, Math.round((to - from) / 60_000) * 60_000) };
  return { from, to };
}

/** A widget's history read of one stream (its key is shared by every widget that shows it). */
function historySpec(stream: string, range: HistoryQuery['range']): ReadSpec {
  return { kind: 'history', query: { streams: [stream], range, points: WIDGET_POINTS } };
}

/** Each stream's history over the dashboard's range (one shared read per stream and range). */
export function useStreamHistories(
  streams: readonly string[],
  context: Pick<WidgetContext, 'range' | 'live'>,
): readonly (HistoryResult | undefined)[] {
  const range = historyRange(context);
  return useShared<HistoryResult>(streams.map((s) => historySpec(s, range)));
}

/** The widgets that read their streams' histories (useWidgetHistories). */
const HISTORY_WIDGETS: ReadonlySet<WidgetType> = new Set(['line', 'state', 'bar']);

/**
 * Opens the history reads a dashboard's charts will ask for as soon as the dashboard is known: its
 * grid's chunk loads and lays out while the worker reads, and the widgets find their answers
 * (the keys are theirs: one read each, shared). The page follows them until it leaves, so a slow
 * chunk does not outlast the linger. `real`: false for a template's dashboard (its widgets name
 * the template's stream places, not streams). A stream known to be missing gets no history read
 * (its widget reads none either). Answers whether every read has answered once.
 */
export function usePrefetchWidgetReads(
  widgets: readonly Pick<DashboardWidget, 'type' | 'streams'>[],
  context: Pick<WidgetContext, 'range' | 'live'>,
  real: boolean,
): boolean {
  const epoch = useAtomValue(sessionEpochAtom);
  const range = historyRange(context);
  const keys: string[] = [];
  if (real) {
    for (const widget of widgets) {
      if (!HISTORY_WIDGETS.has(widget.type)) continue;
      for (const id of widget.streams) {
        const model = readKey(epoch, { kind: 'stream', id });
        keys.push(model);
        if (widgetReads.get(model).value !== null)
          keys.push(readKey(epoch, historySpec(id, range)));
      }
    }
  }
  for (const key of keys) widgetReads.touch(key);
  // Sent now, not when this render's task ends (a dashboard's first render is a long one).
  openQueued();
  const joined = keys.join('\n');
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (joined === '') return () => undefined;
      const stops = joined.split('\n').map((k) => widgetReads.follow(k, onChange));
      return () => {
        for (const stop of stops) stop();
      };
    },
    [joined],
  );
  const answered = useCallback(
    () => joined === '' || joined.split('\n').every((k) => widgetReads.get(k).value !== undefined),
    [joined],
  );
  return useSyncExternalStore(subscribe, answered, answered);
}

/** A stream's hours from the server: null when they could not be read (offline). */
export interface HoursRead {
  readonly from: number;
  readonly to: number;
  readonly hours: readonly (readonly [number, number, number, number, number])[];
}

/** Each stream's hourly rollups over the dashboard's range (one shared read per stream). */
export function useStreamHours(
  streams: readonly string[],
  context: Pick<WidgetContext, 'range' | 'live'>,
): readonly (HoursRead | null | undefined)[] {
  const range = historyRange(context);
  return useShared<HoursRead | null>(streams.map((stream) => ({ kind: 'hours', stream, range })));
}

/** The latest values of assets, live (one shared watch per asset). */
export function useAssetsValues(assets: readonly string[]): readonly (AssetValues | undefined)[] {
  return useShared<AssetValues>(assets.map((asset) => ({ kind: 'asset', asset })));
}

export type StreamState =
  | { readonly name: 'loading' }
  | { readonly name: 'missing' }
  | { readonly name: 'found'; readonly model: LocalModel<'datastream'> };

/**
 * The streams' models from the local store, live: 'missing' for a stream the store does not
 * hold (deleted, or the user may no longer see it: the worker removed it, DESIGN.md §10).
 */
export function useStreamModels(ids: readonly string[]): readonly StreamState[] {
  const models = useShared<LocalModel<'datastream'> | null>(
    ids.map((id) => ({ kind: 'stream', id })),
  );
  // The same answers give the same array: a widget's effects run on new answers only.
  return useMemo(
    () =>
      models.map((m) =>
        m === undefined
          ? { name: 'loading' }
          : m === null
            ? { name: 'missing' }
            : { name: 'found', model: m },
      ),
    [models],
  );
}

/**
 * How a widget names its streams: by their names, and where two of them share a name (the same
 * stream of several machines on an account's dashboard) with their asset's too, 'Motor
 * temperature (Press 3)': a legend, a band or a row that reads alike tells nothing apart.
 */
export function useStreamLabels(
  streams: readonly LocalModel<'datastream'>[],
): (stream: LocalModel<'datastream'>) => string {
  const { t } = useLingui();
  const counts = new Map<string, number>();
  for (const s of streams) counts.set(s.attributes.name, (counts.get(s.attributes.name) ?? 0) + 1);
  const shared = streams.filter((s) => (counts.get(s.attributes.name) ?? 0) > 1);
  const assetIds = [...new Set(shared.map((s) => s.attributes.asset_id))];
  const assets = useShared<LocalModel<'asset'> | null>(
    assetIds.map((id) => ({ kind: 'asset-model', id })),
  );
  return useMemo(() => {
    const assetName = new Map(assetIds.map((id, i) => [id, assets[i]?.attributes.name]));
    return (stream) => {
      const name = stream.attributes.name;
      const asset = (counts.get(name) ?? 0) > 1 ? assetName.get(stream.attributes.asset_id) : null;
      return asset === null || asset === undefined ? name : t`${name} (${asset})`;
    };
    // `counts` and `assetIds` follow from `streams`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [streams, assets, t]);
}

/**
 * A widget's streams and their histories: the history reads start beside the models' (not after
 * them: a chart draws one round trip sooner), for every stream not known to be missing; only the
 * streams found in the store are answered with theirs (a missing one shows none of its values).
 */
export function useWidgetHistories(
  ids: readonly string[],
  context: Pick<WidgetContext, 'range' | 'live'>,
): {
  readonly states: readonly StreamState[];
  readonly found: readonly LocalModel<'datastream'>[];
  readonly histories: readonly (HistoryResult | undefined)[];
} {
  const states = useStreamModels(ids);
  const wanted = ids.filter((_, i) => states[i]?.name !== 'missing');
  const read = useStreamHistories(wanted, context);
  return useMemo(() => {
    const byId = new Map(wanted.map((id, i) => [id, read[i]]));
    const found = states.flatMap((s) => (s.name === 'found' ? [s.model] : []));
    return { states, found, histories: found.map((m) => byId.get(m.id)) };
    // `wanted` follows from `states` and `ids`; `read` is the same array while its answers are.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [states, read]);
}
