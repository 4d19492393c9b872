import '../catalogues';
import { Trans } from '@lingui/react/macro';
import { Affix, Anchor, Paper, Stack, Text } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { sessionAtom } from '../../../state/session';
import { useLiveQuery } from '../../../sync/hooks';
import { servicePaths } from '../paths';

/*
 * An agent's incoming calls, wherever it is in the app (issue 34 item 3): a call of a request
 * for this user that it has not taken shows here, with the way to its request, where it answers.
 * Loaded only for users with the service-agent permission (app-layout.tsx).
 */
export function CallRinger() {
  const userId = useAtomValue(sessionAtom)?.user.id ?? null;
  const pathname = useLocation({ select: (l) => l.pathname });
  const requests = useLiveQuery({ type: 'service_request', limit: 1000 })?.items;
  const ringing = (requests ?? []).flatMap((request) =>
    request.attributes.calls
      .filter((c) => c.ended_at === null && c.participants[1]?.user_id === userId)
      .map((call) => ({ request, call })),
  );
  // On the request's own page its call panel answers.
  const shown = ringing.filter(({ request }) => pathname !== servicePaths.request(request.id));
  if (shown.length === 0) return null;
  return (
    <Affix position={{ bottom: 20, right: 20 }} zIndex={300}>
      <Stack gap="xs">
        {shown.map(({ request, call }) => (
          <Paper
            key={call.id}
            withBorder
            shadow="md"
            p="md"
            radius="md"
            role="alert"
            data-testid="call-ringer"
          >
            <Text size="sm" fw={600}>
              <Trans>Incoming call from {call.participants[0]?.name ?? ''}</Trans>
            </Text>
            <Text size="sm">{request.attributes.title}</Text>
            <Anchor component={Link} to={servicePaths.request(request.id)} size="sm">
              <Trans>Open the request to answer</Trans>
            </Anchor>
          </Paper>
        ))}
      </Stack>
    </Affix>
  );
}
