import '../catalogues';
import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { Affix, Anchor, Paper, Stack, Text } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import type { CallRing } from '@plant/shared-schema';
import { accountIdOf, sessionAtom } from '../../../state/session';
import { useLiveQuery } from '../../../sync/hooks';
import { servicePaths } from '../paths';
import { loadSignalling } from './signalling-chunk';

/*
 * An agent's incoming calls, wherever it is in the app (issue 34 item 3): a call of a request
 * for this user that it has not taken shows here, with the way to its request, where it answers.
 * The broker's ring says it at once (the tab's calls link, held while the ringer is shown); the
 * request lists the call a moment later (the server writes its record 1.5 s after the start),
 * and from then on the request says whether it still rings. Loaded only for users with the
 * service-agent permission (app-layout.tsx).
 */

/**
 * A ring the request does not list yet is shown this long at most (a server that stopped within
 * the record's delay never writes it).
 */
export const HEARD_RING_MS = 120_000;

interface Heard {
  readonly ring: CallRing;
  readonly at: number;
}

/** The ringer's link waits this long after the ringer came, then for an idle moment (below). */
const AFTER_START_MS = 1_500;
const IDLE_WAIT_MS = 3_000;

/**
 * Runs `run` once the page's start is over: a while after now, in an idle moment of the page.
 * The ringer's link is mqtt.js (the signalling chunk, ~335 KB minified), compiled and evaluated
 * on the page's one thread: made at once, it ran beside the first screen's drawing on every
 * start of an agent's app (before the dashboard's chart chunk on an offline reload, bench
 * CONTEXT). A ring in that while is not lost: the request lists its call 1.5 s after the call
 * began, and the ringer shows it from there.
 */
function afterStart(run: () => void): { cancel(): void } {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function')
      idle = requestIdleCallback(run, { timeout: IDLE_WAIT_MS });
    else run();
  }, AFTER_START_MS);
  return {
    cancel() {
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
    },
  };
}

export function CallRinger() {
  const session = useAtomValue(sessionAtom);
  const userId = session?.user.id ?? null;
  const accountId = session === null ? null : accountIdOf(session.user);
  const pathname = useLocation({ select: (l) => l.pathname });
  const requests = useLiveQuery({ type: 'service_request', limit: 1000 })?.items;
  const [heard, setHeard] = useState<readonly Heard[]>([]);
  const [listening, setListening] = useState(false);

  useEffect(() => {
    if (accountId === null || userId === null) return;
    let release: (() => void) | undefined;
    let gone = false;
    const started = afterStart(
      () =>
        void loadSignalling().then(({ hearRings }) => {
          if (gone) return;
          release = hearRings(
            { accountId, userId },
            (ring) =>
              setHeard((was) => [
                ...was.filter((h) => h.ring.call_id !== ring.call_id),
                { ring, at: performance.now() },
              ]),
            setListening,
          );
        }),
    );
    return () => {
      gone = true;
      started.cancel();
      release?.();
      setHeard([]);
      setListening(false);
    };
  }, [accountId, userId]);

  // A heard ring the request never lists goes after HEARD_RING_MS.
  const oldest = heard[0]?.at;
  useEffect(() => {
    if (oldest === undefined) return;
    const timer = setTimeout(
      () => setHeard((was) => was.filter((h) => performance.now() - h.at < HEARD_RING_MS)),
      Math.max(0, oldest + HEARD_RING_MS - performance.now()),
    );
    return () => clearTimeout(timer);
  }, [oldest]);

  const listed = new Set(
    (requests ?? []).flatMap((request) => request.attributes.calls.map((c) => c.id)),
  );
  const ringing = [
    ...(requests ?? []).flatMap((request) =>
      request.attributes.calls
        .filter((c) => c.ended_at === null && c.participants[1]?.user_id === userId)
        .map((call) => ({
          callId: call.id,
          requestId: request.id,
          title: request.attributes.title,
          caller: call.participants[0]?.name ?? '',
        })),
    ),
    ...heard
      .filter((h) => !listed.has(h.ring.call_id))
      .map(({ ring }) => ({
        callId: ring.call_id,
        requestId: ring.request_id,
        title: requests?.find((r) => r.id === ring.request_id)?.attributes.title ?? '',
        caller: ring.caller.name,
      })),
  ];
  // On the request's own page its call panel answers.
  const shown = ringing.filter(({ requestId }) => pathname !== servicePaths.request(requestId));
  // Whether rings are heard from the broker (tests wait for it before a call).
  const state = <span hidden data-testid="call-ringer-state" data-listening={listening} />;
  if (shown.length === 0) return state;
  return (
    <Affix position={{ bottom: 20, right: 20 }} zIndex={300}>
      <Stack gap="xs">
        {state}
        {shown.map(({ callId, requestId, title, caller }) => (
          <Paper
            key={callId}
            withBorder
            shadow="md"
            p="md"
            radius="md"
            role="alert"
            data-testid="call-ringer"
            data-call={callId}
          >
            <Text size="sm" fw={600}>
              <Trans>Incoming call from {caller}</Trans>
            </Text>
            {title === '' ? null : <Text size="sm">{title}</Text>}
            <Anchor component={Link} to={servicePaths.request(requestId)} size="sm">
              <Trans>Open the request to answer</Trans>
            </Anchor>
          </Paper>
        ))}
      </Stack>
    </Affix>
  );
}
