import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import { EmptyState } from '../../components/empty-state';

/**
 * An area that a later release builds: its title and an honest empty state, no invented data.
 * The breadcrumb above it comes from the layout.
 */
export function AreaPage({ title }: { readonly title: MessageDescriptor }) {
  const { i18n } = useLingui();
  return (
    <Stack gap="md">
      <Title order={1}>{i18n._(title)}</Title>
      <EmptyState title={<Trans>Nothing here yet</Trans>}>
        <Text c="dimmed">
          <Trans>This area is not available in this version of the platform.</Trans>
        </Text>
      </EmptyState>
    </Stack>
  );
}
