// Its catalogue and check texts join the translation table with the page.
import './catalogues';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import {
  DIAGRAM_ALARM_COLOR,
  isolate,
  parseSvg,
  type DiagramBinding,
  type SvgElement,
} from '@plant/shared-schema';
import type { AssetValues, LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useServerNow } from '../../components/time-ago';
import { useMayEdit } from '../../permissions/may-edit';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { useAssetValues } from '../../sync/values';
import { isRaised } from '../alarms/alarm-rows';
import { devicePaths } from '../devices/paths';
import { streamShapeOf, valueWithUnit } from '../devices/stream-values';
import { DiagramDrawing, type BoundView } from './diagram-drawing';
import { InspectMoment } from './inspect-moment';

/* The editor (upload, shapes, bindings) loads when editing starts. */
const DiagramEditor = lazy(() =>
  import('./diagram-editor').then((m) => ({ default: m.DiagramEditor })),
);

/**
 * /app/devices/{id}/uml/{diagramid} (issue 37 item 4): a process diagram of the asset, from the
 * local store and the worker's values cache, so it opens offline with the last values known.
 * Bound texts show their stream's latest value with its unit, bound shapes fill by state or turn
 * red while the stream's alarm is raised, and each bound element opens its stream. Who may edit
 * the asset gets the editor on the same page.
 */
export function DiagramPage() {
  const { t } = useLingui();
  const { id = '', diagramid = '' }: { id?: string; diagramid?: string } = useParams({
    strict: false,
  });
  const state = useLiveModel('diagram', diagramid);
  if (state.name === 'loading')
    return <Loader role="status" aria-label={t`Loading the diagram…`} />;
  if (state.name !== 'found' || state.model.attributes.asset_id !== id) {
    return (
      <EmptyState title={<Trans>There is no such diagram here</Trans>}>
        <Anchor component={Link} to={devicePaths.details(id)}>
          <Trans>Back to the asset</Trans>
        </Anchor>
      </EmptyState>
    );
  }
  return <DiagramScreen key={state.model.id} diagram={state.model} />;
}

/** The asset's streams from the local store (the search is a substring match: exact ones kept). */
export function useAssetStreams(assetId: string): readonly LocalModel<'datastream'>[] | undefined {
  const result = useLiveQuery({
    type: 'datastream',
    search: { text: assetId, fields: ['asset_id'] },
    limit: 1000,
  });
  return useMemo(
    () => result?.items.filter((s) => s.attributes.asset_id === assetId),
    [result, assetId],
  );
}

/** The streams of the asset with a raised alarm, live. */
function useRaisedStreams(assetId: string): ReadonlySet<string> {
  const can = useCan();
  const alarms = useLiveQuery(
    can('alarm::view')
      ? { type: 'alarm', search: { text: assetId, fields: ['asset_id'] }, limit: 1000 }
      : null,
  );
  const now = useServerNow(5_000);
  return useMemo(
    () =>
      new Set(
        (alarms?.items ?? [])
          .filter((a) => a.attributes.asset_id === assetId && isRaised(a.attributes, now))
          .map((a) => a.attributes.datastream_id),
      ),
    [alarms, assetId, now],
  );
}

/** A bound stream missing from the store (deleted, or not visible to the user). */
const NOT_AVAILABLE = msg`Not available`;

/** What each bound element shows now. */
function boundViews(
  i18n: I18n,
  bindings: readonly DiagramBinding[],
  streams: ReadonlyMap<string, LocalModel<'datastream'>>,
  values: AssetValues | undefined,
  raised: ReadonlySet<string>,
  open: (streamId: string) => void,
): Map<string, BoundView> {
  const views = new Map<string, BoundView>();
  for (const binding of bindings) {
    const stream = streams.get(binding.stream_id);
    const point = values?.latest[binding.stream_id];
    const alarm = raised.has(binding.stream_id);
    const shown =
      stream === undefined
        ? i18n._(NOT_AVAILABLE)
        : point === undefined
          ? '–'
          : valueWithUnit(i18n, streamShapeOf(stream.attributes), point[1]);
    let fill: string | null = null;
    if (binding.show === 'alarm' && alarm) fill = binding.alarm_color ?? DIAGRAM_ALARM_COLOR;
    if (binding.show === 'state' && point !== undefined)
      fill = binding.colors[String(point[1])] ?? null;
    const name = stream === undefined ? binding.stream_id : stream.attributes.name;
    views.set(binding.element, {
      streamId: binding.stream_id,
      show: binding.show,
      label: `${isolate(name)}: ${shown}`,
      text: binding.show === 'value' ? shown : null,
      fill,
      alarm,
      onOpen: () => open(binding.stream_id),
    });
  }
  return views;
}

function DiagramScreen(props: { readonly diagram: LocalModel<'diagram'> }) {
  const { t, i18n } = useLingui();
  const { diagram } = props;
  const { asset_id: assetId, name, svg, bindings } = diagram.attributes;
  const navigate = useNavigate();
  const mayEdit = useMayEdit('diagram', diagram);
  const [editing, setEditing] = useState(false);
  const root = useMemo<SvgElement | null>(() => parseSvg(svg).root, [svg]);
  const streams = useAssetStreams(assetId);
  const values = useAssetValues(assetId);
  const raised = useRaisedStreams(assetId);
  const byId = useMemo(() => new Map((streams ?? []).map((s) => [s.id, s])), [streams]);
  const bound = useMemo(
    () =>
      boundViews(i18n, bindings, byId, values, raised, (streamId) => {
        void navigate({ to: devicePaths.stream(assetId, streamId) });
      }),
    [i18n, bindings, byId, values, raised, navigate, assetId],
  );
  return (
    <Stack gap="md" data-testid="diagram-page">
      <Group justify="space-between">
        <Title order={1}>
          <Name>{name}</Name>
        </Title>
        {mayEdit && !editing ? (
          <Button variant="light" onClick={() => setEditing(true)} data-testid="diagram-edit">
            <Trans>Edit diagram</Trans>
          </Button>
        ) : null}
      </Group>
      {editing ? (
        <Suspense fallback={<Loader role="status" aria-label={t`Loading the editor…`} />}>
          <DiagramEditor
            diagram={diagram}
            streams={streams ?? []}
            onDone={() => setEditing(false)}
          />
        </Suspense>
      ) : (
        <>
          {values?.offline === true ? (
            <Alert color="gray" data-testid="diagram-offline">
              <Trans>Offline: the values shown are the last known.</Trans>
            </Alert>
          ) : null}
          {root === null ? null : (
            <DiagramDrawing root={root} label={t`Diagram ${isolate(name)}`} bound={bound} />
          )}
          {bindings.length === 0 ? (
            <Text c="dimmed" size="sm" data-testid="diagram-unbound">
              <Trans>No element of this diagram is bound to a data stream yet.</Trans>
            </Text>
          ) : null}
          <InspectMoment assetId={assetId} />
        </>
      )}
    </Stack>
  );
}
