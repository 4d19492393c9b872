import type { ReactNode } from 'react';
import { Paper, Stack, Text } from '@mantine/core';

/** What a screen shows when it has nothing to show: a title and a line of explanation. */
export function EmptyState({
  title,
  children,
}: {
  readonly title: ReactNode;
  readonly children?: ReactNode;
}) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid="empty-state">
      <Stack align="center" gap="xs">
        <Text fw={600}>{title}</Text>
        {children}
      </Stack>
    </Paper>
  );
}
