import { Trans } from '@lingui/react/macro';
import { Center, Paper, Stack, Text } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';

/** The user area's frame: the product's name and one card in the middle of the page. */
export function UserLayout() {
  return (
    <Center component="main" mih="100vh" p="md">
      <Stack w="100%" maw={420} gap="md">
        <Text ta="center" fw={700} size="lg" c="dimmed">
          <Trans>Machine Platform</Trans>
        </Text>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Outlet />
        </Paper>
      </Stack>
    </Center>
  );
}
