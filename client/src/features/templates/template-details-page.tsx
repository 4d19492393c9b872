import { lazy, Suspense } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
  Box,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { isolate, templateAttributesSchema, type TemplateGroup } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveModel } from '../../sync/hooks';
import { syncStatusAtom } from '../../sync/status';
import { syncWorker } from '../../sync/worker';
import { streamTypeLabel } from '../devices/asset-texts';
import { InlineEdit, schemaValidator, ValueText } from '../devices/inline-edit';
import { CreateFromTemplateButton } from './create-from-template';
import { streamCount } from './layout';
import {
  DeleteTemplateButton,
  NoTemplateAccess,
  SourceAsset,
  TemplateNotFound,
} from './template-parts';
import { templatePaths } from './template-paths';
import { Name } from '../../components/name';

/* The template's dashboards (issue 31): a chunk of its own. */
const OwnDashboards = lazy(() =>
  import('../dashboards/dashboards-list-page').then((m) => ({ default: m.OwnDashboards })),
);

/* The template's 3D models and scenes (issue 32): the 3D area's chunk, as on an asset's page. */
const TemplateModels = lazy(() =>
  import('../threed/asset-models').then((m) => ({ default: m.AssetModels })),
);

/** /app/templates/{id}/details: one template from the local store, live. */
export function TemplateDetailsPage() {
  const { id = '' }: { id?: string } = useParams({ strict: false });
  const can = useCan();
  const state = useLiveModel('template', id);
  const { bootstrap } = useAtomValue(syncStatusAtom);
  if (!can('template::view')) return <NoTemplateAccess />;
  if (state.name === 'found') return <TemplateDetails model={state.model} />;
  if (state.name === 'loading' || bootstrap.name === 'idle' || bootstrap.name === 'loading') {
    return <TemplateSkeleton />;
  }
  return <TemplateNotFound notLoaded={bootstrap.name === 'error'} />;
}

type EditableField = 'name' | 'description';

/**
 * A template's details: name and description edited in place (template::edit), the asset it was
 * saved from, and its groups and streams as a new asset gets them (read-only: a layout is changed
 * by saving an asset again); a new asset is made from it here, and it is deleted here.
 */
export function TemplateDetails({ model }: { readonly model: LocalModel<'template'> }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const canEdit = useMayEdit('template', model);
  const { name, description, groups, source_asset_id: source, demo } = model.attributes;
  const groupTotal = groups.length;
  const streamTotal = streamCount(groups);

  const save =
    (field: EditableField) =>
    async (value: string): Promise<string | null> => {
      const result = await syncWorker().writes.update('template', model.id, { [field]: value });
      if (!('error' in result)) return null;
      return translateServerText(i18n, result.error.fields?.[field]?.[0] ?? result.error.message);
    };

  return (
    <Stack gap="lg" data-testid="template-details" data-id={model.id}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Box miw={0} style={{ flex: 1 }}>
          <InlineEdit
            label={t`Name`}
            value={name}
            canEdit={canEdit}
            validate={schemaValidator(i18n, templateAttributesSchema.shape.name)}
            save={save('name')}
            testId="template-name"
          >
            <Title order={1} style={{ overflowWrap: 'anywhere' }}>
              <Name>{name}</Name>
            </Title>
          </InlineEdit>
        </Box>
        <Group gap="xs" wrap="nowrap">
          {demo === null ? null : (
            <Badge variant="light">
              <Trans>Demo</Trans>
            </Badge>
          )}
          {model.pending ? (
            <Badge color="orange" variant="light">
              <Trans>Not synced yet</Trans>
            </Badge>
          ) : null}
          <CreateFromTemplateButton template={model} />
          <DeleteTemplateButton
            template={model}
            onDeleted={() => void navigate({ to: templatePaths.list() })}
          />
        </Group>
      </Group>

      <Paper withBorder p="md" radius="sm">
        <Stack gap="md">
          <Box>
            <Text size="sm" c="dimmed" fw={500} mb={4}>
              <Trans>Description</Trans>
            </Text>
            <InlineEdit
              label={t`Description`}
              value={description}
              multiline
              canEdit={canEdit}
              validate={schemaValidator(i18n, templateAttributesSchema.shape.description)}
              save={save('description')}
              testId="template-description"
            >
              <ValueText value={description} empty={<Trans>No description</Trans>} />
            </InlineEdit>
          </Box>
          <Box>
            <Text size="sm" c="dimmed" fw={500} mb={4}>
              <Trans>Saved from</Trans>
            </Text>
            <SourceAsset id={source} />
          </Box>
        </Stack>
      </Paper>

      <Stack gap="sm">
        <Title order={2} size="h3">
          <Trans>Stream groups and data streams</Trans>
        </Title>
        <Text size="sm" c="dimmed" data-testid="template-summary">
          <Trans>
            <Plural value={groupTotal} one="# stream group" other="# stream groups" />,{' '}
            <Plural value={streamTotal} one="# data stream" other="# data streams" />. A new asset
            made from this template gets them with their settings, without values.
          </Trans>
        </Text>
        {groups.length === 0 ? (
          <EmptyState title={<Trans>No stream groups</Trans>}>
            <Text c="dimmed" ta="center">
              <Trans>Assets made from this template start without data streams.</Trans>
            </Text>
          </EmptyState>
        ) : (
          groups.map((group, i) => <TemplateGroupView key={i} group={group} />)
        )}
      </Stack>

      <Suspense fallback={null}>
        <OwnDashboards assetId={null} templateId={model.id} />
      </Suspense>
      {/* A template's 3D models and scenes: changed by who edits the template (and may make 3D
          models), carried into each asset made from it. */}
      <Suspense fallback={null}>
        <TemplateModels owner={{ kind: 'template', id: model.id }} canEdit={canEdit} />
      </Suspense>
    </Stack>
  );
}

function TemplateGroupView({ group }: { readonly group: TemplateGroup }) {
  const { t, i18n } = useLingui();
  return (
    <Paper withBorder p="sm" radius="sm" data-testid="template-group" data-name={group.name}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5" m={0}>
          <Name>{group.name}</Name>
        </Title>
        <Group gap={6}>
          <Badge size="sm" variant="outline" color="gray">
            {group.collapsible ? <Trans>Collapsible</Trans> : <Trans>Always open</Trans>}
          </Badge>
          {group.collapsible ? (
            <Badge size="sm" variant="outline" color="gray">
              {group.open_by_default ? (
                <Trans>Open by default</Trans>
              ) : (
                <Trans>Closed by default</Trans>
              )}
            </Badge>
          ) : null}
        </Group>
      </Group>
      {group.streams.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No data streams in this group.</Trans>
        </Text>
      ) : (
        <Table aria-label={t`Data streams of ${isolate(group.name)}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Name</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Unit</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Type</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Diagram range</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Pre-processing</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {group.streams.map((stream, i) => (
              <Table.Tr key={i} data-testid="template-stream" data-name={stream.name}>
                <Table.Td>
                  <Name>{stream.name}</Name>
                </Table.Td>
                <Table.Td>{stream.unit === '' ? '–' : stream.unit}</Table.Td>
                <Table.Td>
                  {streamTypeLabel(i18n, stream.type)}
                  {stream.type === 'state' && Object.keys(stream.state_texts).length > 0 ? (
                    <Text size="xs" c="dimmed">
                      {Object.entries(stream.state_texts)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join(', ')}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  {stream.vis_min === null && stream.vis_max === null
                    ? '–'
                    : `${stream.vis_min ?? '–'} … ${stream.vis_max ?? '–'}`}
                </Table.Td>
                <Table.Td>
                  {stream.preprocessing.trim() === '' ? <Trans>None</Trans> : <Trans>Code</Trans>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function TemplateSkeleton() {
  return (
    <Stack gap={10} aria-busy role="status" data-testid="template-loading">
      <VisuallyHidden>
        <Trans>Loading the template…</Trans>
      </VisuallyHidden>
      <Skeleton height={36} width="40%" aria-hidden />
      <Skeleton height={96} aria-hidden />
      <Skeleton height={48} aria-hidden />
    </Stack>
  );
}
