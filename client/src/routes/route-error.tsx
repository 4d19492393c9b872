import { Trans } from '@lingui/react/macro';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { isChunkLoadError } from './lazy';

/**
 * A route that failed. A page whose code did not load (offline before the app was cached, or a
 * new release replaced the chunk) offers a reload; anything else says so plainly.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const chunk = isChunkLoadError(error);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={480} role="alert">
        <Title order={2}>
          {chunk ? (
            <Trans>This page could not be loaded</Trans>
          ) : (
            <Trans>Something went wrong</Trans>
          )}
        </Title>
        <Text c="dimmed" ta="center">
          {chunk ? (
            <Trans>
              Its code did not arrive, perhaps because the network is down. Reload to try again.
            </Trans>
          ) : (
            <Trans>An unexpected error stopped this page. Your unsent changes are kept.</Trans>
          )}
        </Text>
        {chunk ? (
          <Button onClick={() => location.reload()}>
            <Trans>Reload</Trans>
          </Button>
        ) : (
          <Button variant="light" onClick={reset}>
            <Trans>Try again</Trans>
          </Button>
        )}
      </Stack>
    </Center>
  );
}
