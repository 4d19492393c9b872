import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useAtomValue } from 'jotai';
import {
  ACTIVE_SERVICE_STATES,
  apiPaths,
  CALL_TEXTS,
  SERVICE_PERMISSIONS,
  serviceCallStartSchema,
  type CallKind,
  type ServiceCall,
  type ServiceRequestAttributes,
} from '@plant/shared-schema';
import { translateServerText } from '../../../i18n/server-texts';
import { useCan } from '../../../permissions/permissions';
import { accountIdOf, sessionAtom } from '../../../state/session';
import { syncWorker } from '../../../sync/worker';
import {
  AnswerPrimer,
  CallSession,
  localMedia,
  OfferPrimer,
  SpareConnection,
  type CallOptions,
  type CallPeer,
  type CallProblem,
  type CallView,
} from './call-session';
import { loadSignalling } from './signalling-chunk';
import { PreCallCheck } from './pre-call-check';

/*
 * A service request's calls in its page (issue 34 item 3): start a video call or share a screen
 * with an agent, answer a call as its agent, check the devices and the signalling first. The
 * call itself is call-session.ts.
 */

interface ActiveCall {
  readonly callId: string;
  readonly peerName: string;
  /** The agent saw its camera as the call rang: its self-view stays on. */
  readonly previewed?: boolean;
  /** Made and started in the click's handler: no render stands between the click and it. */
  readonly session: CallSession;
}

export function CallPanel(props: {
  readonly requestId: string;
  readonly request: ServiceRequestAttributes;
}) {
  const { i18n } = useLingui();
  const session = useAtomValue(sessionAtom);
  const userId = session?.user.id ?? null;
  const accountId = session === null ? null : accountIdOf(session.user);
  const [active, setActive] = useState<ActiveCall | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [checking, setChecking] = useState(false);
  // A call the broker rang here (before the request's model says it), as the request keeps it.
  const [rung, setRung] = useState<ServiceCall | null>(null);
  // A call for this user as its agent that it has not taken yet: the request says it rings, or
  // the broker did and the request does not have it yet.
  const calls =
    rung === null || props.request.calls.some((c) => c.id === rung.id)
      ? props.request.calls
      : [...props.request.calls, rung];
  const ringing = calls.find(
    (c) => c.ended_at === null && c.participants[1]?.user_id === userId && active?.callId !== c.id,
  );
  /** A call's session, made and started now; the server is told when a call made ends. */
  const begin = (call: {
    readonly media?: Promise<MediaStream>;
    readonly primed?: RTCPeerConnection;
    readonly answered?: CallOptions['answered'];
    readonly peer: Promise<CallPeer | null>;
    readonly polite: boolean;
    readonly kind: CallKind;
  }): CallSession | null => {
    if (accountId === null || userId === null) return null;
    const session = new CallSession({
      accountId,
      userId,
      peer: call.peer,
      polite: call.polite,
      kind: call.kind,
      iceServers: callIceServers(),
      ...(call.media === undefined ? {} : { media: call.media }),
      ...(call.primed === undefined ? {} : { primed: call.primed }),
      ...(call.answered === undefined ? {} : { answered: call.answered }),
      onEnded: ({ callId }) =>
        void syncWorker().http.call(
          'POST',
          apiPaths.serviceCallEnd(props.requestId, callId),
          undefined,
          { quiet: true },
        ),
    });
    void session.start();
    return session;
  };
  // This panel's call, from its click on: hung up if the page goes, even while the server finds
  // the agent or before the call's view shows (the camera was on, and the call the server made
  // rang on with nobody here). The call's view hangs up too; a second hang-up does nothing.
  const live = useRef<CallSession | null>(null);
  useEffect(
    () => () => {
      void live.current?.hangUp();
      live.current = null;
    },
    [],
  );
  const start = async (kind: CallKind) => {
    if (accountId === null || userId === null) return;
    setBusy(true);
    setError(null);
    // The camera (or screen) is asked for while the server finds the agent; the call's offer
    // was made before the click (primed), or is made meanwhile.
    const media = localMedia(kind);
    // Its failure is the call's to tell (call-session.ts), which ends the call once it is made.
    media.catch(() => undefined);
    const dropMedia = () =>
      void media.then(
        (m) => m.getTracks().forEach((t) => t.stop()),
        () => undefined,
      );
    // The offer made before the click goes with the call: the agent answers as it rings.
    const primed = primer.current?.take();
    primer.current = null;
    let made: (peer: CallPeer | null) => void = () => undefined;
    const session = begin({
      media,
      peer: new Promise((resolve) => (made = resolve)),
      polite: false,
      kind,
      ...(primed === undefined ? {} : { primed: primed.pc }),
    });
    live.current = session;
    const answer = await syncWorker().http.call(
      'POST',
      apiPaths.serviceCalls(props.requestId),
      { kind, ...(primed === undefined ? {} : { offer: primed.offer }) },
      { quiet: true },
    );
    const parsed =
      'error' in answer
        ? undefined
        : serviceCallStartSchema.safeParse((answer.data as { data?: unknown }).data);
    const call = parsed?.success === true ? parsed.data : undefined;
    // Its end tells the server of the call made (call-session.ts), or ends quietly.
    made(call === undefined ? null : { callId: call.call_id, peerId: call.peer.user_id });
    // The page went meanwhile: the session was hung up there.
    if (live.current !== session) return;
    setBusy(false);
    if (call === undefined) {
      dropMedia();
      setError(
        'error' in answer && answer.error.kind !== 'network'
          ? translateServerText(i18n, answer.error.message)
          : translateServerText(i18n, CALL_TEXTS.sendFailed),
      );
      return;
    }
    if (session !== null) setActive({ callId: call.call_id, peerName: call.peer.name, session });
  };
  // The call being answered: a second click before the page shows it is no second session (the
  // first would hang up as the second replaced it).
  const answering = useRef<string | null>(null);
  // The agent's camera, started as the call rings when the browser allows it already, and only
  // while the page is seen (a ring in a hidden tab turns no camera on for nobody).
  const seen = useDocumentVisible();
  const preview = useRingPreview(active === null && seen ? (ringing?.id ?? null) : null);
  const ringPreview = preview.ring;
  const answer = () => {
    if (ringing === undefined || answering.current === ringing.id) return;
    answering.current = ringing.id;
    setError(null);
    const previewed = preview.stream !== null;
    const media = preview.take(ringing.id);
    const made = answers.current.get(ringing.id);
    answers.current.delete(ringing.id);
    const session = begin({
      ...(media === undefined ? {} : { media }),
      ...(made === undefined ? {} : { answered: made.take() }),
      peer: Promise.resolve({ callId: ringing.id, peerId: ringing.participants[0]?.user_id ?? '' }),
      polite: true,
      kind: 'video',
    });
    live.current = session;
    if (session === null) return;
    const call = {
      callId: ringing.id,
      peerName: ringing.participants[0]?.name ?? '',
      session,
      previewed,
    };
    // The call's view renders after the session's first steps (its answer sent), not before.
    startTransition(() => setActive(call));
  };
  // The agents' answers made as their calls ring here (AnswerPrimer), by call; those the ring
  // ended without an answer are closed.
  const answers = useRef(new Map<string, AnswerPrimer>());
  const ringingId = ringing?.id ?? null;
  useEffect(() => {
    for (const [id, made] of answers.current)
      if (id !== ringingId) {
        made.close();
        answers.current.delete(id);
      }
  }, [ringingId]);
  useEffect(
    () => () => {
      for (const made of answers.current.values()) made.close();
      answers.current.clear();
    },
    [],
  );
  const mayCall = ACTIVE_SERVICE_STATES.includes(props.request.state);
  // While this user may call, no call runs and the page is seen, the next call's offer is made
  // ready (a hidden tab holds no connection: with TURN servers each primed one holds a relay).
  const primer = useRef<OfferPrimer | null>(null);
  const [primed, setPrimed] = useState(false);
  const idle = mayCall && active === null && !busy && seen;
  useEffect(() => {
    if (!idle || typeof RTCPeerConnection === 'undefined') return;
    const made = new OfferPrimer(callIceServers(), () => setPrimed(true));
    primer.current = made;
    return () => {
      made.close();
      setPrimed(false);
      if (primer.current === made) primer.current = null;
    };
  }, [idle]);
  // While an active request is open, the call's broker link (subscribed to this user's inboxes
  // of every call) and the ICE servers are made ready: a call then waits for no link and no
  // subscription. An agent hears the calls of this request ring on that link too.
  const agent = useCan()(SERVICE_PERMISSIONS.agent);
  const { requestId } = props;
  useEffect(() => {
    if (!mayCall || accountId === null || userId === null) return;
    let release: (() => void) | undefined;
    let gone = false;
    const who = { accountId, userId };
    // The agent's next answer's connection, made ahead while its page listens for rings.
    let spare: SpareConnection | undefined;
    void loadSignalling().then(({ hearRings, warmUp }) => {
      if (gone) return;
      if (agent && typeof RTCPeerConnection !== 'undefined')
        spare = new SpareConnection(callIceServers);
      release = agent
        ? hearRings(who, (ring) => {
            if (ring.request_id !== requestId) return;
            // Its answer made now, in the ring's own task (before the page shows it), on a seen
            // page; sent only by Answer.
            const inCall = (live.current?.current.phase ?? 'ended') !== 'ended';
            if (document.visibilityState === 'visible' && !inCall) {
              if (
                ring.offer !== undefined &&
                !answers.current.has(ring.call_id) &&
                typeof RTCPeerConnection !== 'undefined'
              )
                answers.current.set(
                  ring.call_id,
                  new AnswerPrimer(spare?.take() ?? Promise.resolve(undefined), ring.offer),
                );
              ringPreview(ring.call_id);
            }
            setRung({
              id: ring.call_id,
              kind: ring.kind,
              started_at: Date.now(),
              ended_at: null,
              participants: [ring.caller, { user_id: userId, name: '' }],
            });
          })
        : warmUp(who);
    });
    return () => {
      gone = true;
      release?.();
      spare?.close();
    };
  }, [mayCall, agent, accountId, userId, requestId, ringPreview]);
  return (
    <Paper withBorder p="md" radius="md" data-testid="service-call-panel">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <Trans>Call an agent</Trans>
        </Title>
        {active !== null ? (
          <ActiveCallView
            key={active.callId}
            call={active}
            endedOnServer={
              (props.request.calls.find((c) => c.id === active.callId)?.ended_at ?? null) !== null
            }
            onClosed={() => setActive(null)}
          />
        ) : (
          <>
            {ringing === undefined ? null : (
              <Alert color="teal" variant="light" data-testid="service-call-ringing">
                <Group justify="space-between">
                  <Text size="sm">
                    <Trans>
                      {ringing.participants[0]?.name ?? ''} is calling about this request.
                    </Trans>
                  </Text>
                  <Button onClick={answer} data-testid="service-call-answer">
                    <Trans>Answer</Trans>
                  </Button>
                </Group>
                {preview.stream === null ? null : (
                  <Video
                    stream={preview.stream}
                    muted
                    testId="service-call-preview"
                    label={i18n._(msg`Your camera, sent once you answer`)}
                    small
                  />
                )}
              </Alert>
            )}
            {mayCall ? (
              <Group gap="xs">
                <Button
                  onClick={() => void start('video')}
                  loading={busy}
                  data-testid="service-call-video"
                  data-primed={primed}
                >
                  <Trans>Video call</Trans>
                </Button>
                <Button
                  variant="default"
                  onClick={() => void start('screen')}
                  disabled={busy}
                  data-testid="service-call-screen"
                >
                  <Trans>Share screen</Trans>
                </Button>
                <Button
                  variant="subtle"
                  onClick={() => setChecking((c) => !c)}
                  aria-expanded={checking}
                  data-testid="service-call-check"
                >
                  <Trans>Check camera, microphone, screen and connection</Trans>
                </Button>
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                <Trans>Calls are for active requests.</Trans>
              </Text>
            )}
            {checking && accountId !== null && userId !== null ? (
              <PreCallCheck who={{ accountId, userId }} />
            ) : null}
          </>
        )}
        {error === null ? null : (
          <Alert color="red" variant="light" role="alert" data-testid="service-call-error">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The agent's camera and microphone while a call rings here (`callId`, null: none rings): taken
 * at the ring when the browser already allows both (the agent is asked nothing it did not ask
 * for), shown beside Answer, and given to the call on Answer (`take`), so the caller waits for
 * no camera to start after the click: 60 to 240 ms of the set-up (bench/call.bench.ts). `ring`
 * starts it from the broker's ring itself, before the page renders it (an Answer at once then
 * waits less). Stopped when the ring ends unanswered, the page is hidden, or it goes.
 */
function useRingPreview(callId: string | null): {
  readonly stream: MediaStream | null;
  readonly ring: (callId: string) => void;
  readonly take: (callId: string) => Promise<MediaStream> | undefined;
} {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const held = useRef<Holding | null>(null);
  const stop = useCallback((holding: Holding) => {
    if (held.current !== holding) return;
    held.current = null;
    setStream(null);
    void holding.media?.then(
      (m) => m.getTracks().forEach((t) => t.stop()),
      () => undefined,
    );
  }, []);
  const ring = useCallback((id: string) => {
    if (held.current !== null) return; // One camera, for the call that rang first.
    const holding: Holding = { callId: id };
    held.current = holding;
    const start = () => {
      if (held.current !== holding) return;
      const media = localMedia('video');
      holding.media = media;
      media.then(
        (came) => {
          if (held.current === holding) setStream(came);
          // Stopped meanwhile (not taken): its tracks too.
          else if (!holding.taken) came.getTracks().forEach((t) => t.stop());
        },
        () => undefined,
      );
    };
    // Known at once after the first ask: the camera starts in the ring's own task.
    const allowed = mediaAllowedNow();
    if (allowed === true) start();
    else if (allowed === undefined)
      void mediaAllowed().then((yes) => {
        if (yes) start();
      });
  }, []);
  // The permissions asked before any ring, so a ring knows them at once.
  useEffect(() => void mediaPermissions(), []);
  useEffect(() => {
    // Another call's camera (rung here, then not shown as ringing) goes off.
    const other = held.current;
    if (other !== null && other.callId !== callId) stop(other);
    if (callId === null) return;
    ring(callId);
    const holding = held.current;
    return () => {
      // Not taken by an answer: the camera goes off with the ring.
      if (holding !== null) stop(holding);
    };
  }, [callId, ring, stop]);
  return {
    stream,
    ring,
    take: (id) => {
      const holding = held.current;
      if (holding?.callId !== id) return undefined;
      holding.taken = true;
      held.current = null;
      setStream(null);
      return holding.media;
    },
  };
}

/** The agent's camera held for a ringing call. */
interface Holding {
  readonly callId: string;
  media?: Promise<MediaStream>;
  /** Given to the call (its tracks are the call's to stop). */
  taken?: boolean;
}

/**
 * The camera's and microphone's permissions, asked once per page: live objects, their state
 * follows the browser's (null: a browser that cannot say, where the camera starts on Answer).
 */
let permissions: Promise<readonly PermissionStatus[] | null> | undefined;
let permissionsKnown: readonly PermissionStatus[] | null | undefined;

function mediaPermissions(): Promise<readonly PermissionStatus[] | null> {
  permissions ??= Promise.all(
    ['camera', 'microphone'].map((name) =>
      navigator.permissions.query({ name: name as PermissionName }),
    ),
  ).then(
    (states) => (permissionsKnown = states),
    () => (permissionsKnown = null),
  );
  return permissions;
}

const granted = (states: readonly PermissionStatus[] | null) =>
  states !== null && states.every((s) => s.state === 'granted');

/** Whether the browser lets this page use the camera and microphone without asking. */
async function mediaAllowed(): Promise<boolean> {
  return granted(await mediaPermissions());
}

/** The same, at once once asked (asking took 35 to 45 ms); undefined: not known yet. */
function mediaAllowedNow(): boolean | undefined {
  if (permissionsKnown === undefined) {
    void mediaPermissions();
    return undefined;
  }
  return granted(permissionsKnown);
}

/** The calls' ICE servers (signalling.ts, a chunk of its own: read once per tab). */
const callIceServers = () => loadSignalling().then(({ iceServers }) => iceServers());

/** Whether the page is seen (not a hidden tab or a minimised window). */
function useDocumentVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const changed = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', changed);
    return () => document.removeEventListener('visibilitychange', changed);
  }, []);
  return visible;
}

/**
 * When a call shows this side's own picture (the self-view): once the other side's picture has
 * shown, and not before SELF_VIEW_AFTER_MS after its camera came; SELF_VIEW_AT_LATEST_MS after it
 * in any case (the other side sends none, or is slow to). A call's first moments are for the
 * other side's picture: shown at once, the self-view's first frame and its 30 frames a second
 * were drawn on the same cores while the other side's first frame was encoded, sent, decoded
 * and shown, on both sides. Alternating calls of the call bench (8 to 10 each way, an agent
 * answering at once): 407 ms with the self-view at once against 318 with it a second later, and
 * 453 and 504 against 346 and 345 with none; shown as soon as the other side's picture showed
 * (the agent's self-view then came as the caller's picture reached it, before its own reached
 * the caller), 358 against 323. An agent who saw its camera as the call rang keeps seeing it.
 */
const SELF_VIEW_AFTER_MS = 1000;
const SELF_VIEW_AT_LATEST_MS = 3000;

function ActiveCallView(props: {
  readonly call: ActiveCall;
  /** The request says the call ended (its peer hung up or went away). */
  readonly endedOnServer: boolean;
  readonly onClosed: () => void;
}) {
  const { i18n } = useLingui();
  const { call } = props;
  const [view, setView] = useState<CallView>(call.session.current);
  // Ended when the view really goes (React's second run of effects in development unmounts and
  // mounts at once: that is no hang-up).
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    setView(call.session.current);
    const stop = call.session.listen(setView);
    return () => {
      stop();
      mounted.current = false;
      setTimeout(() => {
        if (!mounted.current) void call.session.hangUp();
      }, 0);
    };
  }, [call]);
  useEffect(() => {
    if (props.endedOnServer) call.session.endedElsewhere();
  }, [props.endedOnServer, call]);
  const session = { current: call.session };
  const phase = view.phase;
  // This side's own picture: once the other side's shows, and not in the call's first second;
  // at the latest a few seconds after its camera came; at once for an agent who saw it ring.
  const [remoteShown, setRemoteShown] = useState(false);
  const remoteFirstFrame = useCallback(() => setRemoteShown(true), []);
  const [waited, setWaited] = useState<'no' | 'least' | 'most'>('no');
  const hasLocal = view.local !== null;
  useEffect(() => {
    if (!hasLocal) return;
    const least = setTimeout(() => setWaited('least'), SELF_VIEW_AFTER_MS);
    const most = setTimeout(() => setWaited('most'), SELF_VIEW_AT_LATEST_MS);
    return () => {
      clearTimeout(least);
      clearTimeout(most);
    };
  }, [hasLocal]);
  const selfView =
    call.previewed === true || waited === 'most' || (waited === 'least' && remoteShown);
  return (
    <Stack gap="sm" data-testid="service-call" data-phase={phase}>
      <Group gap="xs">
        <Badge variant="light" color={phase === 'connected' ? 'teal' : 'gray'}>
          {phaseWords(phase)}
        </Badge>
        <Text size="sm">{call.peerName}</Text>
      </Group>
      <Group gap="sm" align="flex-start">
        {view.remote.map((stream) => (
          <Video
            key={stream.id}
            stream={stream}
            muted={false}
            testId="service-call-remote"
            onFirstFrame={remoteFirstFrame}
          />
        ))}
        {view.local === null || !selfView ? null : (
          <Video stream={view.local} muted testId="service-call-local" small />
        )}
      </Group>
      {view.problem === null ? null : (
        <Alert color="red" variant="light" role="alert" data-testid="service-call-problem">
          {problemText(i18n, view.problem)}
        </Alert>
      )}
      {phase === 'ended' ? (
        <Group>
          <Text size="sm" data-testid="service-call-ended">
            {view.endedByPeer ? (
              <Trans>The other side ended the call.</Trans>
            ) : (
              <Trans>The call has ended.</Trans>
            )}
          </Text>
          <Button
            variant="default"
            size="compact-sm"
            onClick={props.onClosed}
            data-testid="service-call-close"
          >
            <Trans>Close</Trans>
          </Button>
        </Group>
      ) : (
        <Group gap="xs">
          {view.sharing ? (
            <Button variant="default" onClick={() => session.current?.stopSharing()}>
              <Trans>Stop sharing</Trans>
            </Button>
          ) : (
            <Button
              variant="default"
              onClick={() => void session.current?.shareScreen()}
              data-testid="service-call-share"
            >
              <Trans>Share screen</Trans>
            </Button>
          )}
          <Button variant="default" onClick={() => session.current?.toggleMute()}>
            {view.muted ? <Trans>Unmute</Trans> : <Trans>Mute</Trans>}
          </Button>
          <Button
            color="red"
            onClick={() => void session.current?.hangUp()}
            data-testid="service-call-hangup"
          >
            <Trans>Hang up</Trans>
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function Video(props: {
  readonly stream: MediaStream;
  readonly muted: boolean;
  readonly testId: string;
  readonly small?: boolean;
  /** What the picture is, for a screen reader. */
  readonly label?: string;
  /** Told when the stream's first frame is shown (or its data came, where frames are not told). */
  readonly onFirstFrame?: () => void;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  const { stream, onFirstFrame } = props;
  useEffect(() => {
    const video = ref.current;
    if (video === null) return;
    video.srcObject = stream;
    if (onFirstFrame === undefined) return;
    if (typeof video.requestVideoFrameCallback === 'function') {
      const handle = video.requestVideoFrameCallback(() => onFirstFrame());
      return () => video.cancelVideoFrameCallback(handle);
    }
    video.addEventListener('loadeddata', onFirstFrame, { once: true });
    return () => video.removeEventListener('loadeddata', onFirstFrame);
  }, [stream, onFirstFrame]);
  return (
    <video
      ref={ref}
      autoPlay
      playsInline
      muted={props.muted}
      data-testid={props.testId}
      aria-label={props.label}
      style={{
        width: props.small === true ? 160 : 360,
        maxWidth: '100%',
        background: '#000',
        borderRadius: 4,
      }}
    />
  );
}

function phaseWords(phase: CallView['phase']) {
  switch (phase) {
    case 'starting':
      return <Trans>Starting</Trans>;
    case 'waiting':
      return <Trans>Waiting for the agent</Trans>;
    case 'connecting':
      return <Trans>Connecting</Trans>;
    case 'connected':
      return <Trans>Connected</Trans>;
    case 'ended':
      return <Trans>Ended</Trans>;
  }
}

export function problemText(i18n: Parameters<typeof translateServerText>[0], problem: CallProblem) {
  switch (problem) {
    case 'signalling':
      return translateServerText(i18n, CALL_TEXTS.noSignalling);
    case 'screen':
      return translateServerText(i18n, CALL_TEXTS.noScreen);
    case 'media':
      return i18n._(MEDIA_PROBLEM);
  }
}

const MEDIA_PROBLEM = msg`Camera or microphone cannot be used (check permission)`;
