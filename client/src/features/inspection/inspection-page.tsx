import './catalogues';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { inspectionWindow } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncStatusAtom } from '../../sync/status';
import { syncWorker } from '../../sync/worker';
import { alarmPaths } from '../alarms/alarm-paths';
import { useStreamHistories } from '../dashboards/widgets/shared-reads';
import { CoverageNote } from '../dashboards/widgets/widget-parts';
import { devicePaths } from '../devices/paths';
import { InspectionCharts } from './inspection-charts';
import { MARK_COLORS, type Mark } from './inspection-marks';
import { InspectionNotes } from './inspection-notes';
import { canShift, presetOf, shapeOf, shifted, SPANS_MIN, withSpan } from './inspection-window';
import { inspectionPath } from './paths';
import { useAlarmMarks, type AlarmMarks } from './use-alarm-marks';

/**
 * /app/devices/{id}/eventinspection/{opportunityid} (issue 37 item 5): one inspection from the
 * local store, live (offline too): every stream of its asset on one time axis around its moment,
 * the alarm's transitions marked, its window (±5 to 60 min, shifted), its notes and its link.
 * The charts read the worker's values cache through the dashboards' shared reads (all opened in
 * one `values.watchMany` call) and say, offline, which part of the window the device holds.
 */
export function InspectionPage() {
  const { id = '', opportunityid = '' }: { id?: string; opportunityid?: string } = useParams({
    strict: false,
  });
  const state = useLiveModel('inspection', opportunityid);
  // The asset's streams are asked for beside the inspection, by the asset the address names (its
  // own in every link the app makes), not a round trip after it; once the inspection is here,
  // its own asset decides (useAssetStreams keeps only that asset's streams).
  const assetId = state.name === 'found' ? state.model.attributes.asset_id : id;
  const streams = useAssetStreams(assetId);
  const { bootstrap } = useAtomValue(syncStatusAtom);
  if (state.name === 'found') return <InspectionView inspection={state.model} streams={streams} />;
  if (state.name === 'loading' || bootstrap.name === 'idle' || bootstrap.name === 'loading') {
    return (
      <Stack gap={10} aria-busy role="status">
        <VisuallyHidden>
          <Trans>Loading the inspection…</Trans>
        </VisuallyHidden>
        <Skeleton height={36} width="40%" aria-hidden />
        <Skeleton height={240} aria-hidden />
      </Stack>
    );
  }
  return (
    <Stack gap="md" data-testid="inspection-not-found">
      <Title order={1}>
        <Trans>Event inspection</Trans>
      </Title>
      <EmptyState title={<Trans>There is no such inspection here</Trans>}>
        <Text c="dimmed" ta="center">
          <Trans>It may have been deleted, or its asset is not one you may see.</Trans>
        </Text>
        <Button component={Link} to={devicePaths.list()} variant="light">
          <Trans>Go to the assets</Trans>
        </Button>
      </EmptyState>
    </Stack>
  );
}

/** The asset's streams in the order of its page: by group, then by name. */
function useAssetStreams(assetId: string): readonly LocalModel<'datastream'>[] | undefined {
  const streams = useLiveQuery({
    type: 'datastream',
    search: { text: assetId, fields: ['asset_id'] },
    limit: 1000,
  });
  const groups = useLiveQuery({
    type: 'datastreamgroup',
    parent: { type: 'asset', id: assetId },
    limit: 1000,
  });
  return useMemo(() => {
    if (streams === undefined || groups === undefined) return undefined;
    const order = new Map(groups.items.map((g, i) => [g.id, i]));
    // The search is a substring match: keep exactly this asset's.
    return streams.items
      .filter((s) => s.attributes.asset_id === assetId)
      .map((s, i) => ({ s, i, g: order.get(s.attributes.group_id) ?? order.size }))
      .sort((a, b) => a.g - b.g || a.i - b.i)
      .map(({ s }) => s);
  }, [streams, groups, assetId]);
}

function InspectionView({
  inspection,
  streams,
}: {
  readonly inspection: LocalModel<'inspection'>;
  /** The asset's streams, in order; undefined while they are read. */
  readonly streams: readonly LocalModel<'datastream'>[] | undefined;
}) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const a = inspection.attributes;
  const { from, to } = inspectionWindow(a);
  const asset = useLiveModel('asset', a.asset_id);
  const ids = useMemo(() => (streams ?? []).map((s) => s.id), [streams]);
  const histories = useStreamHistories(ids, { range: { from, to }, live: false });
  // What the charts do not need is read and shown once they are on the screen: the worker and
  // the page's thread are both on the first paint's path until then (the bench measures it).
  const drawn = useAfterPaint(streams !== undefined && histories.every(Boolean));
  const alarmState = useLiveModel('alarm', drawn && can('alarm::view') ? (a.alarm_id ?? '') : '');
  const alarm = alarmState.name === 'found' ? alarmState.model : null;
  const marks = useAlarmMarks(a.alarm_id === null ? null : alarm, from, to, drawn);
  const [problem, setProblem] = useState<string | null>(null);

  const shape = shapeOf(a);
  const preset = presetOf(shape);
  const move = async (sides: { before_ms: number; after_ms: number }) => {
    const answer = await syncWorker().writes.update('inspection', inspection.id, sides);
    setProblem('error' in answer ? translateServerText(i18n, callErrorText(answer.error)) : null);
  };
  const time = (ms: number) =>
    i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'medium' });
  const clock = (ms: number) => i18n.date(new Date(ms), { timeStyle: 'medium' });

  return (
    <Stack gap="md" data-testid="inspection" data-id={inspection.id} data-at={a.at}>
      <Group justify="space-between" align="flex-start" gap="md">
        <Box miw={0} style={{ flex: '1 1 18rem' }}>
          <Title order={1}>
            <Trans>Event inspection</Trans>
          </Title>
          <Text c="dimmed" data-testid="inspection-subject">
            {asset.name === 'found' ? (
              <Anchor component={Link} to={devicePaths.details(a.asset_id)}>
                <Name>{asset.model.attributes.name}</Name>
              </Anchor>
            ) : null}
            {' · '}
            <time dateTime={new Date(a.at).toISOString()} data-testid="inspection-moment">
              {time(a.at)}
            </time>
            {alarm === null ? null : (
              <>
                {' · '}
                <Anchor component={Link} to={alarmPaths.alarm(alarm.id)}>
                  <Name>{alarm.attributes.name}</Name>
                </Anchor>
              </>
            )}
          </Text>
        </Box>
        {inspection.pending ? (
          <Text size="sm" c="orange" data-testid="inspection-pending">
            <Trans>
              Saved on this device; sent to the server as soon as the connection allows.
            </Trans>
          </Text>
        ) : null}
      </Group>

      <Group gap="xs" justify="space-between">
        <Group gap={4} role="group" aria-label={t`Time around the moment`}>
          {SPANS_MIN.map((m) => (
            <Button
              key={m}
              size="xs"
              variant={preset === m ? 'filled' : 'default'}
              aria-pressed={preset === m}
              onClick={() => void move(withSpan(shape, m * 60_000))}
              data-testid={`inspection-span-${m}`}
            >
              {t`±${m} min`}
            </Button>
          ))}
        </Group>
        <Group gap={4}>
          <Button
            size="xs"
            variant="default"
            disabled={!canShift(shape, -1)}
            onClick={() => void move(shifted(shape, -1))}
            data-testid="inspection-earlier"
          >
            <Trans>Earlier</Trans>
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={shape.shiftMs === 0}
            onClick={() => void move(withSpan({ spanMs: shape.spanMs, shiftMs: 0 }, shape.spanMs))}
            data-testid="inspection-centre"
          >
            <Trans>Centre on the moment</Trans>
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={!canShift(shape, 1)}
            onClick={() => void move(shifted(shape, 1))}
            data-testid="inspection-later"
          >
            <Trans>Later</Trans>
          </Button>
        </Group>
      </Group>
      <Text size="sm" data-testid="inspection-window" data-from={from} data-to={to}>
        <Trans>
          From {time(from)} to {clock(to)}
        </Trans>
      </Text>
      {problem === null ? null : (
        <Alert color="red" role="alert" withCloseButton onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      )}

      <MarksLegend at={a.at} marks={marks} clock={clock} />
      <CoverageNote results={histories} />
      {streams === undefined ? (
        <Skeleton height={240} aria-busy />
      ) : streams.length === 0 ? (
        <EmptyState title={<Trans>This asset has no data streams</Trans>}>
          <Text c="dimmed" ta="center">
            <Trans>Its values show here once it has data streams.</Trans>
          </Text>
        </EmptyState>
      ) : (
        <InspectionCharts
          streams={streams}
          histories={histories}
          from={from}
          to={to}
          at={a.at}
          marks={marks.marks}
          syncKey={inspection.id}
        />
      )}

      {drawn ? (
        <>
          <InspectionNotes inspection={inspection} />
          <ShareLink assetId={a.asset_id} inspectionId={inspection.id} />
        </>
      ) : null}
    </Stack>
  );
}

/**
 * True from the first frame painted after `value` was (then on): what mounts then is not
 * rendered, laid out and painted with the frame it waited for.
 */
function useAfterPaint(value: boolean): boolean {
  const [latched, setLatched] = useState(false);
  useEffect(() => {
    if (!value || latched) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The frame's callbacks run before its paint; a task queued there runs after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setLatched(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [value, latched]);
  return latched;
}

/** What the lines mean: the moment and each transition in the window, with its time. */
function MarksLegend(props: {
  readonly at: number;
  readonly marks: AlarmMarks;
  readonly clock: (ms: number) => string;
}) {
  const { t } = useLingui();
  const kindText = (kind: Mark['kind']) =>
    kind === 'raised' ? t`Raised` : kind === 'cleared' ? t`Cleared` : t`Acknowledged`;
  return (
    <Stack gap={4}>
      <Group gap="md" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        <LegendEntry color={MARK_COLORS.moment} dashed testId="inspection-mark-moment">
          <Trans>The moment, {props.clock(props.at)}</Trans>
        </LegendEntry>
        {props.marks.marks.map((m) => (
          <LegendEntry
            key={`${m.ts}|${m.kind}`}
            color={MARK_COLORS[m.kind]}
            testId="inspection-mark"
            kind={m.kind}
            ts={m.ts}
          >
            {`${kindText(m.kind)}, ${props.clock(m.ts)}`}
          </LegendEntry>
        ))}
      </Group>
      {props.marks.source === 'device' ? (
        <Text size="xs" c="dimmed" data-testid="inspection-marks-offline">
          <Trans>The history is kept on the server: it shows once the server can be reached.</Trans>
        </Text>
      ) : null}
    </Stack>
  );
}

function LegendEntry(props: {
  readonly color: string;
  readonly dashed?: boolean;
  readonly testId: string;
  readonly kind?: string;
  readonly ts?: number;
  readonly children: ReactNode;
}) {
  return (
    <Group
      component="li"
      gap={6}
      data-testid={props.testId}
      data-kind={props.kind}
      data-ts={props.ts}
    >
      <span
        aria-hidden
        style={{
          display: 'inline-block',
          width: 18,
          borderTop: `2px ${props.dashed === true ? 'dashed' : 'solid'} ${props.color}`,
        }}
      />
      <Text size="sm" span>
        {props.children}
      </Text>
    </Group>
  );
}

/** The inspection's address for a colleague (who sees the asset): shown, and copied on a click. */
function ShareLink(props: { readonly assetId: string; readonly inspectionId: string }) {
  const { t } = useLingui();
  const link = `${location.origin}${inspectionPath(props.assetId, props.inspectionId)}`;
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(link).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <Stack gap={4}>
      <Group align="flex-end" gap="xs">
        <TextInput
          readOnly
          label={t`Link for a colleague who may see the asset`}
          value={link}
          onFocus={(e) => e.currentTarget.select()}
          style={{ flex: '1 1 20rem' }}
          data-testid="inspection-link"
        />
        <Button variant="light" onClick={() => void copy()} data-testid="inspection-copy-link">
          <Trans>Copy link</Trans>
        </Button>
      </Group>
      {copied === null ? null : (
        <Text size="xs" c={copied ? 'teal' : 'dimmed'} role="status">
          {copied ? (
            <Trans>Link copied.</Trans>
          ) : (
            <Trans>The browser did not allow copying: select the link and copy it.</Trans>
          )}
        </Text>
      )}
    </Stack>
  );
}
