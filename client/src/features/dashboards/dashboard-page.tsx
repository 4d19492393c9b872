import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import {
  dashboardAttributesSchema,
  isolate,
  resolveRange,
  uuidv7,
  type DashboardRange,
  type DashboardWidget,
  type WidgetType,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { ConfirmDelete } from '../../components/confirm-delete';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { translateServerText } from '../../i18n/server-texts';
import { useMayEdit } from '../../permissions/may-edit';
import { useRecordVisit } from '../../state/recent';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncStatusAtom } from '../../sync/status';
import { syncWorker } from '../../sync/worker';
import { InlineEdit, schemaValidator } from '../devices/inline-edit';
import { useMayDeleteDashboard } from './dashboard-permissions';
import { DashboardRangeControl } from './dashboard-range';
import { freeSpot, placesOf } from './grid-layout';
import { dashboardPaths } from './paths';
import { Chunk, chunkOf, useChunks } from './widgets/chunks';
import { usePrefetchWidgetReads } from './widgets/shared-reads';
import type { WidgetContext } from './widgets/widget-props';

/*
 * The grid (react-grid-layout and the widgets) and the widget dialogs come in chunks of their
 * own after the page: the page's first visit stays within its budget (e2e/bundle-budget.test.ts),
 * and the service worker keeps every chunk for offline use.
 */
const gridChunk = new Chunk(() => import('./dashboard-grid'));
// This page shows a dashboard: the grid's chunk is asked for as the page's chunk runs, beside
// the dashboard's read, not after it.
void gridChunk.load().catch(() => undefined);
const AddWidgetDialog = lazy(() =>
  import('./widget-dialog').then((m) => ({ default: m.AddWidgetDialog })),
);
const WidgetSettingsDialog = lazy(() =>
  import('./widget-dialog').then((m) => ({ default: m.WidgetSettingsDialog })),
);

/**
 * /app/dashboards/{dashboardid}, and an asset's or a template's `dashboard/{dashboardid}`: one
 * dashboard from the local store, live (offline too). The visit is recorded for Home's
 * "Recently opened" (issue 30 item 4).
 */
export function DashboardPage() {
  const { dashboardid = '' }: { dashboardid?: string } = useParams({ strict: false });
  useRecordVisit('dashboard', dashboardid === '' ? null : dashboardid);
  const state = useLiveModel('dashboard', dashboardid, { remembered: true });
  const { bootstrap } = useAtomValue(syncStatusAtom);
  if (state.name === 'found') return <DashboardView key={state.model.id} model={state.model} />;
  if (state.name === 'loading' || bootstrap.name === 'idle' || bootstrap.name === 'loading') {
    return (
      <Stack gap={10} aria-busy role="status" data-testid="dashboard-loading">
        <VisuallyHidden>
          <Trans>Loading the dashboard…</Trans>
        </VisuallyHidden>
        <Skeleton height={36} width="40%" aria-hidden />
        <Skeleton height={240} aria-hidden />
      </Stack>
    );
  }
  return (
    <Stack gap="md" data-testid="dashboard-not-found">
      <Title order={1}>
        <Trans>Dashboard</Trans>
      </Title>
      <EmptyState title={<Trans>There is no such dashboard here</Trans>}>
        <Text c="dimmed" ta="center">
          <Trans>It may have been deleted.</Trans>
        </Text>
        <Button component={Link} to={dashboardPaths.list()} variant="light">
          <Trans>Go to the dashboards</Trans>
        </Button>
      </EmptyState>
    </Stack>
  );
}

/**
 * How long a dashboard's grid waits for its charts' first answers from the worker (the cache's,
 * usually within a few tens of ms), so that the grid and its charts come in one frame. The
 * dashboard bench's opening, four runs of 16 to 20 openings each way in turns: 0 to 23 ms
 * sooner with the wait (117 to 144 ms against 126 to 161), never later.
 */
const HOLD_MS = 250;

/** The viewer's own ranges (no right to store one): kept for this session of the app only. */
const viewerRanges = new Map<string, DashboardRange>();

/** Now, again every 30 s: a relative range moves with it. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function DashboardView({ model }: { readonly model: LocalModel<'dashboard'> }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const mayEdit = useMayEdit('dashboard', model);
  const { name, asset_id: assetId, template_id: templateId, widgets } = model.attributes;
  const mayDelete = useMayDeleteDashboard(assetId);
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const [settingsOf, setSettingsOf] = useState<DashboardWidget | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [viewerRange, setViewerRange] = useState(() => viewerRanges.get(model.id));
  const range = mayEdit ? model.attributes.range : (viewerRange ?? model.attributes.range);
  const now = useNow();
  const resolved = resolveRange(range, now);
  const scope = { assetId, templateId };
  const live = range.kind === 'relative';
  // The charts' reads start now, while the grid's and the widgets' chunks load; the grid shows
  // once these are all here (chunks.ts: no Suspense fallback to wait out), then stays: a widget
  // of a new type added later loads in its own cell. The map's chunk (MapLibre) is not waited
  // for: the rest shows while it loads in its cell.
  const answered = usePrefetchWidgetReads(widgets, { range: resolved, live }, templateId === null);
  // A latch, not state: setting state once the grid showed re-rendered the whole dashboard
  // while its charts were being drawn.
  const gridShown = useRef(false);
  // The grid waits (at most HOLD_MS) for the charts' first answers: shown before them, its twelve
  // cells were laid out and painted empty, then each rendered again with its chart a frame later.
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (answered || gridShown.current) return;
    const timer = setTimeout(() => setWaited(true), HOLD_MS);
    return () => clearTimeout(timer);
  }, [answered]);
  const hold = !answered && !waited;
  const chunksHere = useChunks(
    gridShown.current
      ? [gridChunk]
      : [gridChunk, ...widgets.filter((w) => w.type !== 'map').map((w) => chunkOf(w.type))],
  );
  const Grid =
    chunksHere && (gridShown.current || !hold) ? gridChunk.module?.DashboardGrid : undefined;
  if (Grid !== undefined) gridShown.current = true;

  /** One write of the model: shown at once, queued offline, landed once. */
  const write = async (changes: {
    widgets?: DashboardWidget[];
    range?: DashboardRange;
    name?: string;
  }) => {
    const result = await syncWorker().writes.update('dashboard', model.id, changes);
    if (!('error' in result)) {
      setProblem(null);
      return null;
    }
    const first = Object.values(result.error.fields ?? {})[0]?.[0];
    const text = translateServerText(i18n, first ?? result.error.message);
    setProblem(text);
    return text;
  };
  const pickRange = (next: DashboardRange) => {
    if (mayEdit) {
      void write({ range: next });
      return;
    }
    viewerRanges.set(model.id, next);
    setViewerRange(next);
  };
  const addWidget = (type: WidgetType, size: { readonly w: number; readonly h: number }) => {
    const spot = freeSpot(placesOf(widgets), size.w, size.h);
    const widget: DashboardWidget = {
      id: uuidv7(),
      type,
      ...spot,
      w: size.w,
      h: size.h,
      title: null,
      streams: [],
      options: {},
    };
    setAdding(false);
    void write({ widgets: [...widgets, widget] }).then((failed) => {
      if (failed === null) setSettingsOf(widget);
    });
  };
  const saveWidget = (widget: DashboardWidget) => {
    setSettingsOf(null);
    void write({ widgets: widgets.map((w) => (w.id === widget.id ? widget : w)) });
  };
  const removeWidget = (widget: DashboardWidget) => {
    void write({ widgets: widgets.filter((w) => w.id !== widget.id) });
  };
  // The grid's props stay the same while what they say does: the page renders again as its
  // permissions and visits are read, and each time the whole grid did too, twelve charts' cells
  // while the first paint was due.
  const latest = useRef({ pickRange, write, removeWidget });
  latest.current = { pickRange, write, removeWidget };
  const context = useMemo<WidgetContext>(
    () => ({
      dashboardId: model.id,
      assetId,
      range: { from: resolved.from, to: resolved.to },
      live,
      // A chart zoomed to a span: the dashboard's range becomes it (stored as any pick is).
      onRangeChange: (span) =>
        latest.current.pickRange({
          kind: 'fixed',
          from: Math.round(span.from),
          to: Math.round(span.to),
        }),
    }),
    [model.id, assetId, resolved.from, resolved.to, live],
  );
  const onLayout = useMemo(
    () => (next: DashboardWidget[]) => void latest.current.write({ widgets: next }),
    [],
  );
  const onRemove = useMemo(
    () => (widget: DashboardWidget) => latest.current.removeWidget(widget),
    [],
  );

  // The reports that send this dashboard (those this user sees): the server refuses to delete
  // it while one does, so the question says so before, not a failed write after.
  const usingReports = useLiveQuery(
    deleting
      ? { type: 'report', search: { text: model.id, fields: ['dashboard_id'] }, limit: 20 }
      : null,
  );
  const usedBy = (usingReports?.items ?? []).filter((r) => r.attributes.dashboard_id === model.id);
  const reportNames = usedBy.map((r) => isolate(r.attributes.name)).join(', ');
  const remove = async () => {
    const result = await syncWorker().writes.remove('dashboard', model.id);
    if ('error' in result) {
      setProblem(translateServerText(i18n, result.error.message));
      return;
    }
    setDeleting(false);
    await navigate({ to: dashboardPaths.home(model.attributes) });
  };

  return (
    <Stack gap="md" data-testid="dashboard" data-id={model.id}>
      <Group justify="space-between" align="flex-start" gap="md">
        <Box miw={0} style={{ flex: '1 1 16rem' }}>
          <InlineEdit
            label={t`Name`}
            value={name}
            canEdit={mayEdit}
            validate={schemaValidator(i18n, dashboardAttributesSchema.shape.name)}
            save={(value) => write({ name: value })}
            testId="dashboard-name"
          >
            <Title order={1} style={{ overflowWrap: 'break-word' }}>
              <Name testId="dashboard-title">{name}</Name>
            </Title>
          </InlineEdit>
          {templateId !== null ? (
            <Text size="sm" c="dimmed">
              <Trans>Each asset made from the template gets a copy.</Trans>
            </Text>
          ) : null}
        </Box>
        <Group gap="xs">
          {model.pending ? (
            <Tooltip
              label={t`Saved on this device. It is sent to the server as soon as the connection allows.`}
              multiline
              w={260}
            >
              <Badge color="orange" variant="light" data-testid="dashboard-pending">
                <Trans>Not synced yet</Trans>
              </Badge>
            </Tooltip>
          ) : null}
          {mayEdit ? (
            <Button
              variant={editing ? 'filled' : 'light'}
              onClick={() => setEditing((e) => !e)}
              aria-pressed={editing}
              data-testid="dashboard-edit"
            >
              {editing ? <Trans>Done</Trans> : <Trans>Edit layout</Trans>}
            </Button>
          ) : null}
          {mayEdit && editing ? (
            <Button variant="light" onClick={() => setAdding(true)} data-testid="add-widget">
              <Trans>Add widget</Trans>
            </Button>
          ) : null}
          {mayDelete ? (
            <Button
              variant="subtle"
              color="red"
              onClick={() => setDeleting(true)}
              data-testid="dashboard-delete"
            >
              <Trans>Delete dashboard</Trans>
            </Button>
          ) : null}
        </Group>
      </Group>

      <Group justify="space-between" gap="xs">
        <DashboardRangeControl value={range} resolved={resolved} onChange={pickRange} />
        {!mayEdit ? (
          <Text size="xs" c="dimmed">
            <Trans>Your range is kept for this visit only.</Trans>
          </Text>
        ) : null}
      </Group>

      {problem === null ? null : (
        <Alert color="red" role="alert" withCloseButton onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      )}

      {widgets.length === 0 ? (
        <EmptyState title={<Trans>This dashboard has no widgets yet</Trans>}>
          {mayEdit ? (
            <Button
              variant="light"
              onClick={() => {
                setEditing(true);
                setAdding(true);
              }}
            >
              <Trans>Add widget</Trans>
            </Button>
          ) : null}
        </EmptyState>
      ) : null}
      {Grid === undefined ? (
        <Box role="status" aria-busy data-testid="dashboard-grid-loading">
          <VisuallyHidden>
            <Trans>Loading the dashboard…</Trans>
          </VisuallyHidden>
          <Skeleton height={240} aria-hidden />
        </Box>
      ) : (
        <Grid
          widgets={widgets}
          editing={mayEdit && editing}
          context={context}
          onLayout={onLayout}
          onEdit={setSettingsOf}
          onRemove={onRemove}
        />
      )}

      <Suspense fallback={null}>
        {adding ? (
          <AddWidgetDialog opened onClose={() => setAdding(false)} onAdd={addWidget} />
        ) : null}
        {settingsOf !== null ? (
          <WidgetSettingsDialog
            widget={settingsOf}
            scope={scope}
            onClose={() => setSettingsOf(null)}
            onSave={saveWidget}
          />
        ) : null}
      </Suspense>
      <ConfirmDelete
        opened={deleting}
        title={t`Delete the dashboard ${isolate(name)}?`}
        consequences={
          usedBy.length > 0 ? (
            t`${plural(usedBy.length, {
              one: `The report ${reportNames} sends this dashboard: change or delete it first.`,
              other: `The reports ${reportNames} send this dashboard: change or delete them first.`,
            })}`
          ) : (
            <Trans>Its widgets go with it; the data streams stay. This cannot be undone.</Trans>
          )
        }
        consequencesTestId="dashboard-delete-consequences"
        disabled={usedBy.length > 0}
        error={null}
        confirmLabel={<Trans>Delete dashboard</Trans>}
        confirmTestId="dashboard-delete-confirm"
        onClose={() => setDeleting(false)}
        onConfirm={() => void remove()}
      />
    </Stack>
  );
}
