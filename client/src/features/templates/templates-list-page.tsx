import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Button, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { devicePaths } from '../devices/paths';
import { CreateFromTemplateButton } from './create-from-template';
import { streamCount } from './layout';
import { DeleteTemplateButton, NoTemplateAccess, SourceAsset } from './template-parts';
import { templatePaths } from './template-paths';
import { Name } from '../../components/name';
import { isolate } from '@plant/shared-schema';

/**
 * /app/templates/list: the account's templates (layouts saved from assets, spec 001 §1) from the
 * local store, live: name, how many groups and streams, the asset each came from; each opens,
 * makes a new asset, or is deleted after a confirmation.
 */
export function TemplatesListPage() {
  const { t } = useLingui();
  const can = useCan();
  const templates = useLiveQuery(can('template::view') ? { type: 'template', limit: 1000 } : null);
  return (
    <Stack gap="md" data-testid="templates-list">
      <Title order={1}>
        <Trans>Templates</Trans>
      </Title>
      {!can('template::view') ? (
        <NoTemplateAccess />
      ) : templates === undefined ? (
        <Stack gap={8} aria-busy>
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      ) : templates.items.length === 0 ? (
        <EmptyState title={<Trans>No templates yet</Trans>}>
          <Text c="dimmed" ta="center" maw={480}>
            <Trans>
              A template keeps an asset's stream groups and data streams with their settings. Open
              an asset and choose “Save as template” to make one; new assets can then be made from
              it.
            </Trans>
          </Text>
          <Button component={Link} to={devicePaths.list()} variant="light">
            <Trans>Go to the assets</Trans>
          </Button>
        </EmptyState>
      ) : (
        <Table striped highlightOnHover aria-label={t`Templates`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Name</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Stream groups</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Data streams</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Saved from</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Actions</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {templates.items.map((template) => (
              <TemplateRow key={template.id} template={template} />
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function TemplateRow({ template }: { readonly template: LocalModel<'template'> }) {
  const { t } = useLingui();
  const { name, groups, source_asset_id: source, demo } = template.attributes;
  return (
    <Table.Tr data-testid="template-row" data-id={template.id} data-name={name}>
      <Table.Td>
        <Group gap="xs">
          <Anchor component={Link} to={templatePaths.details(template.id)}>
            <Name>{name}</Name>
          </Anchor>
          {demo === null ? null : (
            <Badge size="sm" variant="light">
              <Trans>Demo</Trans>
            </Badge>
          )}
          {template.pending ? (
            <Badge size="sm" color="orange" variant="light">
              <Trans>Not synced yet</Trans>
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td data-testid="template-groups">{groups.length}</Table.Td>
      <Table.Td data-testid="template-streams">{streamCount(groups)}</Table.Td>
      <Table.Td>
        <SourceAsset id={source} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Button
            component={Link}
            to={templatePaths.details(template.id)}
            variant="subtle"
            aria-label={t`Open ${{ name: isolate(name) }}`}
          >
            <Trans>Open</Trans>
          </Button>
          <CreateFromTemplateButton template={template} variant="subtle" />
          <DeleteTemplateButton template={template} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
