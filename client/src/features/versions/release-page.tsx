import './catalogues';
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { withTimeout } from '../../routes/lazy';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Select, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useLocation, useNavigate, useParams } from '@tanstack/react-router';
import { compareVersions } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useMayEdit } from '../../permissions/may-edit';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { ArtifactPanel } from './artifact-panel';
import { ModuleAssets } from './module-assets';
import { NewReleaseButton } from './new-release';
import { MODULE_TABS, versionPaths, type ModuleTab } from './paths';
import { GeneralForm } from './general-form';
import {
  RefusalAlert,
  ReleaseStateBadge,
  targetLabel,
  useRefusal,
  VersionsNav,
  WhoWhen,
} from './release-parts';

/*
 * The parts a first look at a version does not need load after it (the first visit's budget):
 * the rollouts with their form, the history, a module's tab editor (tables, number inputs).
 */
const Deployments = lazy(async () => ({
  default: (await withTimeout(import('./deployments'))).Deployments,
}));
const ReleaseHistory = lazy(async () => ({
  default: (await withTimeout(import('./release-history'))).ReleaseHistory,
}));
const ModuleTabEditor = lazy(async () => ({
  default: (await withTimeout(import('./module-tabs'))).ModuleTabEditor,
}));

function Later({ children }: { readonly children: ReactNode }) {
  return <Suspense fallback={<Skeleton height={120} />}>{children}</Suspense>;
}

/**
 * One version (issue 35): `/app/versions/platforms/{target}/{id}/general` (the agent's or a
 * firmware's, with its rollouts) and `/app/versions/modules/{name}/{version?}/{tab}` (a module's,
 * its newest without a version, with the spec's tabs). Read from the local store, live.
 */
export function ReleasePage() {
  const params: { slug?: string; id?: string; version?: string } = useParams({ strict: false });
  const { pathname } = useLocation();
  if (params.slug !== undefined) return <PlatformVersion id={params.id ?? ''} />;
  const tab = pathname.split('/').at(-1) as ModuleTab;
  return (
    <ModuleVersion
      name={params.id ?? ''}
      version={params.version ?? null}
      tab={MODULE_TABS.includes(tab) ? tab : 'general'}
    />
  );
}

function NotHere() {
  return (
    <EmptyState title={<Trans>There is no such version in this account</Trans>}>
      <Button component={Link} to={versionPaths.modules()} variant="light">
        <Trans>Go to release management</Trans>
      </Button>
    </EmptyState>
  );
}

/** What changes with each change of a version: its history is read again then. */
const changeKey = (release: LocalModel<'release'>) =>
  `${release.attributes.state}:${release.attributes.changed_at}:${String(release.pending)}`;

function PlatformVersion({ id }: { readonly id: string }) {
  const state = useLiveModel('release', id);
  // Its rollouts' moves and counts (each gateway's step): the history is read again with them.
  const rollouts = useLiveQuery({
    type: 'deployment',
    parent: { type: 'release', id },
    limit: 1000,
  });
  const rolloutKey = JSON.stringify(
    rollouts?.items.map((d) => [d.attributes.state, d.attributes.counts]) ?? [],
  );
  if (state.name === 'loading') return <Skeleton height={240} />;
  if (state.name === 'missing' || state.model.attributes.target === 'module') return <NotHere />;
  const release = state.model;
  return (
    <Stack gap="md" data-testid="release-page" data-id={release.id}>
      <VersionsNav />
      <ReleaseHead release={release} back={versionPaths.platforms()} />
      <ReleaseBody release={release} tab="general" />
      <Later>
        {release.attributes.state === 'draft' ? null : <Deployments release={release} />}
        <ReleaseHistory
          key={release.id}
          release={release}
          refresh={`${changeKey(release)}:${rolloutKey}`}
        />
      </Later>
    </Stack>
  );
}

function ModuleVersion(props: {
  readonly name: string;
  readonly version: string | null;
  readonly tab: ModuleTab;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const result = useLiveQuery({ type: 'release', limit: 1000 });
  const versions = useMemo(
    () =>
      result?.items
        .filter((r) => r.attributes.target === 'module' && r.attributes.name === props.name)
        .sort((a, b) => compareVersions(b.attributes.version, a.attributes.version)),
    [result, props.name],
  );
  if (versions === undefined) return <Skeleton height={240} />;
  const release =
    props.version === null
      ? versions[0]
      : versions.find((r) => r.attributes.version === props.version);
  if (release === undefined) return <NotHere />;
  const version = release.attributes.version;
  return (
    <Stack gap="md" data-testid="release-page" data-id={release.id}>
      <VersionsNav />
      <ReleaseHead release={release} back={versionPaths.modules()} />
      <Group align="flex-end" gap="sm">
        <Select
          label={t`Version`}
          data={versions.map((r) => r.attributes.version)}
          value={version}
          allowDeselect={false}
          onChange={(v) => {
            if (v !== null)
              void navigate({ to: versionPaths.moduleVersion(props.name, v, props.tab) });
          }}
          w={180}
          data-testid="module-version"
        />
        <NewReleaseButton targets={['module']} name={props.name} />
      </Group>
      <Tabs
        value={props.tab}
        onChange={(tab) => {
          if (tab !== null)
            void navigate({
              to: versionPaths.moduleVersion(props.name, version, tab as ModuleTab),
            });
        }}
      >
        <Tabs.List aria-label={t`Module version`}>
          <Tabs.Tab value="general">
            <Trans>General</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="interface" data-testid="module-tab-interface">
            <Trans>Interface</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="featureflags" data-testid="module-tab-featureflags">
            <Trans>Feature flags</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="actions" data-testid="module-tab-actions">
            <Trans>Actions</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="datastreams" data-testid="module-tab-datastreams">
            <Trans>Data streams</Trans>
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <ReleaseBody release={release} tab={props.tab} />
      {props.tab === 'general' ? (
        <Later>
          <ReleaseHistory key={release.id} release={release} refresh={changeKey(release)} />
        </Later>
      ) : null}
    </Stack>
  );
}

/** The version's name and number, its state, and the moves its state may make. */
function ReleaseHead(props: { readonly release: LocalModel<'release'>; readonly back: string }) {
  const { t } = useLingui();
  const { release } = props;
  const a = release.attributes;
  const mayEdit = useMayEdit('release', release);
  const can = useCan();
  // A module version on assets moves in and out of their gateways' configuration: who manages
  // gateways moves it (the server says the same).
  const mayMove = mayEdit && (a.target !== 'module' || can('gateway::edit'));
  const [refusal, clear] = useRefusal(release.id, true);
  const move = async (state: 'released' | 'active') => {
    clear();
    await syncWorker().writes.update('release', release.id, { state });
  };
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {targetLabel(a.target)}
          </Text>
          <Group gap="sm">
            <Title order={1} data-testid="release-heading">
              <Name>{a.name}</Name> {a.version}
            </Title>
            <ReleaseStateBadge state={a.state} />
          </Group>
          <WhoWhen
            label={t`Released`}
            at={a.released_at}
            by={a.released_by}
            testId="release-released"
          />
          <WhoWhen
            label={t`Changed`}
            at={a.changed_at}
            by={a.changed_by}
            testId="release-changed"
          />
        </Stack>
        <Group gap="xs">
          {mayEdit && a.state === 'draft' ? (
            <Button
              onClick={() => void move('released')}
              disabled={a.artifact_file_id === null}
              title={a.artifact_file_id === null ? t`Please upload a file` : undefined}
              data-testid="release-release"
            >
              <Trans>Release</Trans>
            </Button>
          ) : null}
          {mayMove && a.state === 'released' && a.target === 'module' ? (
            <Button
              variant="light"
              onClick={() => void move('active')}
              data-testid="release-activate"
            >
              <Trans>Make active</Trans>
            </Button>
          ) : null}
          {mayMove && a.state === 'active' ? (
            <Button
              variant="default"
              onClick={() =>
                void syncWorker().writes.update('release', release.id, { state: 'released' })
              }
              data-testid="release-deactivate"
            >
              <Trans>No longer active</Trans>
            </Button>
          ) : null}
          <Anchor component={Link} to={props.back} size="sm">
            <Trans>All versions</Trans>
          </Anchor>
        </Group>
      </Group>
      <RefusalAlert text={refusal} />
    </Stack>
  );
}

function ReleaseBody(props: { readonly release: LocalModel<'release'>; readonly tab: ModuleTab }) {
  // Keyed: a form's unsaved rows never carry over to another tab or version.
  if (props.tab !== 'general')
    return (
      <Later>
        <ModuleTabEditor
          key={`${props.release.id}:${props.tab}`}
          release={props.release}
          tab={props.tab}
        />
      </Later>
    );
  return (
    <Stack gap="md">
      <GeneralForm key={props.release.id} release={props.release} />
      <ArtifactPanel release={props.release} />
      {props.release.attributes.target === 'module' ? (
        <ModuleAssets key={props.release.id} release={props.release} />
      ) : null}
    </Stack>
  );
}
