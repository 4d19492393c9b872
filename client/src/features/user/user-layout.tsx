import { Center, Paper } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';

/** The user area's frame: one card in the middle of the page. */
export function UserLayout() {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Outlet />
      </Paper>
    </Center>
  );
}
