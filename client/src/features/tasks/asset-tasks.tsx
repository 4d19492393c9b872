import './catalogues';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { useDueTasks } from './due-tasks';
import { taskPaths } from './paths';

/**
 * The asset page's section of its service booklet (issue 37 items 2 and 3): what is due on the
 * machine now, each with its form to fill in, and the way to its booklet. A chunk of its own,
 * below the fold.
 */
export function AssetTasks(props: { readonly assetId: string }) {
  const { t } = useLingui();
  const can = useCan();
  const due = useDueTasks(props.assetId) ?? [];
  if (!can('form::view') && !can('form_entry::view')) return null;
  return (
    <Paper withBorder p="md" radius="md" data-testid="asset-tasks">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h3">
            <Trans>Service booklet</Trans>
          </Title>
          <Anchor
            component={Link}
            to={taskPaths.booklet(props.assetId)}
            data-testid="asset-booklet"
          >
            <Trans>Open the service booklet</Trans>
          </Anchor>
        </Group>
        {due.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>Nothing is due on this asset.</Trans>
          </Text>
        ) : (
          due.map(({ state, task }) => (
            <Group key={state.id} gap="sm" data-testid="asset-due-task">
              <Badge color="orange" variant="light">
                {t`Due`}
              </Badge>
              <Text size="sm">
                <Name>{task.attributes.name}</Name>
              </Text>
              {can('form_entry::create') ? (
                <Anchor
                  size="sm"
                  component={Link}
                  to={taskPaths.fill(props.assetId, task.attributes.form_id, task.id)}
                >
                  <Trans>Fill in</Trans>
                </Anchor>
              ) : null}
            </Group>
          ))
        )}
      </Stack>
    </Paper>
  );
}
