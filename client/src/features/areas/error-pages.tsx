import { Trans } from '@lingui/react/macro';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';

function Screen({
  title,
  text,
}: {
  readonly title: React.ReactNode;
  readonly text: React.ReactNode;
}) {
  return (
    <Center mih="70vh" p="md">
      <Stack align="center" gap="sm" maw={480}>
        <Title order={1}>{title}</Title>
        <Text c="dimmed" ta="center">
          {text}
        </Text>
        <Button component={Link} to="/">
          <Trans>Go to the start page</Trans>
        </Button>
      </Stack>
    </Center>
  );
}

/** /error, and every unknown path (spec 000 §2). */
export function ErrorPage() {
  return (
    <Screen
      title={<Trans>Page not found</Trans>}
      text={
        <Trans>
          There is nothing at this address. Check the link, or start from the beginning.
        </Trans>
      }
    />
  );
}

/** /nopermission. */
export function NoPermissionPage() {
  return (
    <Screen
      title={<Trans>No permission</Trans>}
      text={<Trans>Your role does not allow this. Ask an administrator of your account.</Trans>}
    />
  );
}
