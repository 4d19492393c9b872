import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Highlight, Skeleton, Text, VisuallyHidden } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { AlarmSeverity } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { useLiveQuery } from '../../sync/hooks';
import { useAssetValues } from '../../sync/values';
import { textOf } from './asset-texts';
import { assetStatusOf } from './asset-status-rule';
import { AssetStatusBadge } from './asset-status';
import { AlarmSeverityBadge, useAlarmSummary, worstOf } from '../alarms/alarm-summary';
import type { RaisedAlarm } from '../alarms/alarm-rows';
import {
  useFillHeight,
  useFocusWhenRendered,
  useListWindow,
  type ListWindowProps,
} from './devices-table';
import classes from './devices.module.css';
import { FileImage } from './file-image';
import { devicePaths } from './paths';
import { streamShapeOf, valueText } from './stream-values';
import { Name } from '../../components/name';

/** Cards have one fixed height, so rows of cards can be virtualised like table rows. */
export const CARD_HEIGHT = 248;
const CARD_MIN_WIDTH = 240;
const GAP = 16;
const OVERSCAN_ROWS = 2;
/** The key values of a card: the first streams of its first group, in their order. */
const KEY_VALUES = 3;
/**
 * A card asks for its values only once it has stayed on screen this long: scrolling past a
 * thousand cards does not open a thousand value watches.
 */
const SETTLE_MS = 300;

export interface DevicesPanelProps extends ListWindowProps {
  readonly total: number;
  readonly at: (index: number) => LocalModel<'asset'> | undefined;
  /** The text the names are searched for, highlighted. */
  readonly highlight: string;
}

/**
 * The assets as cards (issue 16: photo, name, state, latest key values), virtualised by rows of
 * cards: only the rows on screen (and two more each side) exist in the DOM, and only their cards
 * watch values. The list is one Tab stop: arrow keys move between cards (Up and Down by a row),
 * Page Up/Down by a screen, Home and End to the ends, Enter opens the asset.
 */
export function DevicesPanel(props: DevicesPanelProps) {
  const { total, at, highlight } = props;
  const { t } = useLingui();
  // One live query of the account's alarms for every card (the worst raised one per asset).
  const { worstByAsset, raisedByAsset } = useAlarmSummary();
  const navigate = useNavigate();
  const scrollRef = useRef<HTMLDivElement>(null);
  const height = useFillHeight(scrollRef);
  const width = useWidth(scrollRef);
  // The rows have GAP on each side; cards are at least CARD_MIN_WIDTH wide with GAP between.
  const columns = Math.max(1, Math.floor((width - GAP) / (CARD_MIN_WIDTH + GAP)));
  const rows = Math.ceil(total / columns);

  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => CARD_HEIGHT + GAP,
    overscan: OVERSCAN_ROWS,
    initialOffset: props.initialOffset,
    paddingStart: GAP,
    paddingEnd: GAP,
  });
  // The row height is fixed; the width decides the number of columns, so a resize re-measures.
  useLayoutEffect(() => virtualizer.measure(), [columns, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items.at(-1)?.index ?? 0;
  const first = firstRow * columns;
  const last = Math.min(total - 1, (lastRow + 1) * columns - 1);
  const { offset, active, setActive } = useListWindow(virtualizer, { first, last }, props);

  const activeIndex = Math.max(0, Math.min(active, total - 1));
  const tabbable = activeIndex >= first && activeIndex <= last ? activeIndex : first;
  const focusItem = useFocusWhenRendered(scrollRef, (index) => `[data-index="${index}"]`);
  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(index, total - 1));
    setActive(next);
    focusItem(next);
    virtualizer.scrollToIndex(Math.floor(next / columns), { align: 'auto' });
  };
  const open = (index: number) => {
    const model = at(index);
    if (model !== undefined) void navigate({ to: devicePaths.details(model.id) });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).getAttribute('role') !== 'listitem') return;
    const perPage =
      columns *
      Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 0) / (CARD_HEIGHT + GAP)));
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const keys: Record<string, () => void> = {
      ArrowRight: () => moveTo(activeIndex + (rtl ? -1 : 1)),
      ArrowLeft: () => moveTo(activeIndex + (rtl ? 1 : -1)),
      ArrowDown: () => moveTo(activeIndex + columns),
      ArrowUp: () => moveTo(activeIndex - columns),
      PageDown: () => moveTo(activeIndex + perPage),
      PageUp: () => moveTo(activeIndex - perPage),
      Home: () => moveTo(0),
      End: () => moveTo(total - 1),
      Enter: () => open(activeIndex),
    };
    const action = keys[event.key];
    if (action === undefined || event.altKey || event.metaKey) return;
    event.preventDefault();
    action();
  };
  const onClick = (event: MouseEvent<HTMLElement>, index: number) => {
    setActive(index);
    if ((event.target as HTMLElement).closest('a') === null) open(index);
  };

  return (
    <div
      ref={scrollRef}
      className={classes.panelScroller}
      style={{ height }}
      onScroll={(event) => {
        offset.current = event.currentTarget.scrollTop;
      }}
      data-testid="devices-panel-scroller"
    >
      <div
        role="list"
        aria-label={t`Assets`}
        className={classes.panelBody}
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
        data-testid="devices-panel"
      >
        {items.map((row) => (
          <div
            key={row.key}
            className={classes.panelRow}
            style={{
              transform: `translateY(${row.start}px)`,
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
            }}
          >
            {Array.from({ length: columns }, (_, c) => {
              const index = row.index * columns + c;
              if (index >= total) return null;
              return (
                <AssetCard
                  key={index}
                  index={index}
                  total={total}
                  model={at(index)}
                  alarm={worstOf(worstByAsset, at(index))}
                  raised={raisedByAsset}
                  highlight={highlight}
                  tabbable={index === tabbable}
                  onFocus={() => setActive(index)}
                  onClick={(event) => onClick(event, index)}
                />
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

function AssetCard({
  index,
  total,
  model,
  alarm,
  raised,
  highlight,
  tabbable,
  onFocus,
  onClick,
}: {
  readonly index: number;
  readonly total: number;
  readonly model: LocalModel<'asset'> | undefined;
  readonly alarm: AlarmSeverity | undefined;
  readonly raised: ReadonlyMap<string, RaisedAlarm>;
  readonly highlight: string;
  readonly tabbable: boolean;
  readonly onFocus: () => void;
  readonly onClick: (event: MouseEvent<HTMLElement>) => void;
}) {
  const common = {
    role: 'listitem',
    'aria-posinset': index + 1,
    'aria-setsize': total,
    'data-index': index,
    tabIndex: tabbable ? 0 : -1,
    className: classes.card,
    onFocus,
  } as const;
  if (model === undefined) {
    return (
      <div {...common} aria-busy data-testid="device-card-loading">
        <Skeleton height={96} />
        <Skeleton height={16} width="70%" mt="sm" />
        <Skeleton height={12} width={56} mt="xs" />
      </div>
    );
  }
  const name = textOf(model.attributes, 'name');
  return (
    <div {...common} data-testid="device-card" data-id={model.id} onClick={onClick}>
      <AssetCardPhoto name={name} photo={model.attributes.photo} />
      <div className={classes.cardText}>
        <Link to={devicePaths.details(model.id)} className={classes.cardName} tabIndex={-1}>
          {/* A <bdi>: a name's bidirectional controls stay inside it. */}
          <Highlight component="bdi" inherit highlight={highlight}>
            {name}
          </Highlight>
        </Link>
        <AssetStatusBadge
          shown={assetStatusOf(model.attributes, raised.get(model.id))}
          testId="device-card-status"
        />
        <AlarmSeverityBadge severity={alarm} size="xs" />
        <KeyValues assetId={model.id} />
      </div>
    </div>
  );
}

/**
 * The asset's picture on its card: its photo's thumbnail (from the worker: kept, waiting to
 * upload, or read from the server), or the name's first letter when it has none.
 */
export function AssetCardPhoto({
  name,
  photo,
}: {
  readonly name: string;
  readonly photo: string | null;
}) {
  const initial = Array.from(name.trim())[0]?.toLocaleUpperCase() ?? '?';
  // Decorative: the card names the asset beside it.
  return (
    <div className={classes.cardPhoto} aria-hidden data-testid="device-card-photo">
      {photo === null ? initial : <FileImage id={photo} alt="" size={96} fallback={initial} />}
    </div>
  );
}

/** The first streams of the asset's first group with their latest values, once settled. */
function KeyValues({ assetId }: { readonly assetId: string }) {
  const settled = useSettled(SETTLE_MS);
  const groups = useLiveQuery(
    settled ? { type: 'datastreamgroup', parent: { type: 'asset', id: assetId }, limit: 1 } : null,
  );
  const group = groups?.items[0];
  const streams = useLiveQuery(
    group === undefined
      ? null
      : {
          type: 'datastream',
          parent: { type: 'datastreamgroup', id: group.id },
          limit: KEY_VALUES,
        },
  );
  if (groups === undefined || (group !== undefined && streams === undefined)) {
    return <div className={classes.cardValues} aria-hidden />;
  }
  if (streams === undefined || streams.items.length === 0) {
    return (
      <Text size="xs" c="dimmed" className={classes.cardValues}>
        <Trans>No data streams</Trans>
      </Text>
    );
  }
  return <LiveValues assetId={assetId} streams={streams.items} />;
}

function LiveValues({
  assetId,
  streams,
}: {
  readonly assetId: string;
  readonly streams: readonly LocalModel<'datastream'>[];
}) {
  const { i18n } = useLingui();
  const values = useAssetValues(assetId);
  return (
    <dl className={classes.cardValues} data-testid="device-card-values">
      {streams.map((stream) => {
        const shape = streamShapeOf(stream.attributes);
        const point = values?.latest[stream.id];
        const unit =
          point !== undefined && shape.type === 'number' && shape.unit !== ''
            ? ` ${shape.unit}`
            : '';
        return (
          <div key={stream.id} className={classes.cardValue}>
            <dt>
              <Name>{textOf(stream.attributes, 'name')}</Name>
            </dt>
            <dd>
              {point === undefined ? (
                <Text span size="xs" c="dimmed">
                  <span aria-hidden>—</span>
                  <VisuallyHidden>
                    <Trans>No value yet</Trans>
                  </VisuallyHidden>
                </Text>
              ) : (
                `${valueText(i18n, shape, point[1])}${unit}`
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** False at first, true once the component has stayed mounted `ms`. */
function useSettled(ms: number): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return settled;
}

/** The element's content width, following resizes. */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
