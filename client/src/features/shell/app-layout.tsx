import { AppShell, Group, Text } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import { BootstrapProgress, SyncIndicator } from './sync-indicator';

/** Interim frame of /app: the layout work replaces it (menu, breadcrumb, account switcher). */
export function AppLayout() {
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md">
          <Text fw={700}>Machine Platform</Text>
          <SyncIndicator />
        </Group>
        <BootstrapProgress />
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
