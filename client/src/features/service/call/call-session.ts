import type { CallKind, CallSignal, IceServer } from '@plant/shared-schema';
import type { OutgoingSignal, Signalling } from './signalling';

/*
 * One call in the browser (issue 34 item 3): WebRTC to the other party, its signalling over the
 * broker (signalling.ts). The caller listens from the start (it says `ready` once it does); the
 * callee offers as soon as it answered and listens, again on the caller's `ready` or every
 * second until an answer comes (a message sent before the other listens is lost); the caller
 * answers with its tracks. After that either side may offer when it adds or removes a track (a
 * screen), by the "perfect negotiation" pattern: the agent (callee) is polite, the caller not.
 */

export type CallPhase = 'starting' | 'waiting' | 'connecting' | 'connected' | 'ended';

/** Why a call could not do something; each has one cause, the pre-call check tests each. */
export type CallProblem = 'signalling' | 'screen' | 'media';

export interface CallView {
  readonly phase: CallPhase;
  readonly problem: CallProblem | null;
  readonly local: MediaStream | null;
  /** The other party's streams: its camera, and its screen while it shares one. */
  readonly remote: readonly MediaStream[];
  readonly sharing: boolean;
  readonly muted: boolean;
  /** The other party ended the call (not this side). */
  readonly endedByPeer: boolean;
}

export interface CallOptions {
  readonly accountId: string;
  readonly callId: string;
  readonly userId: string;
  readonly peerId: string;
  /** The agent's side: it answers the caller's offer, and yields when both offer at once. */
  readonly polite: boolean;
  readonly kind: CallKind;
  readonly iceServers: readonly IceServer[];
  /** The local media, already asked for (the caller's, while the server sets the call up). */
  readonly media?: Promise<MediaStream>;
  /** Told once, when the call ends here or there (the server is told by the page). */
  readonly onEnded: () => void;
}

/** How often the callee offers again until the caller's answer comes. */
const READY_EVERY_MS = 1000;

/** The local media of a call's kind: camera and microphone, or a screen and the microphone. */
export async function localMedia(kind: CallKind): Promise<MediaStream> {
  if (kind === 'video')
    return navigator.mediaDevices.getUserMedia({ video: true, audio: true }).catch(() => {
      throw new CallFailure('media');
    });
  const screen = await navigator.mediaDevices.getDisplayMedia({ video: true }).catch(() => {
    throw new CallFailure('screen');
  });
  // A voice besides the screen, when there is a microphone to give one.
  const voice = await navigator.mediaDevices.getUserMedia({ audio: true }).catch(() => null);
  return new MediaStream([...screen.getTracks(), ...(voice?.getTracks() ?? [])]);
}

/** An SDP's origin line: the same for one offer sent again, a new version for a new offer. */
function originOf(sdp: string | undefined): string | undefined {
  return sdp?.split(/\r?\n/).find((line) => line.startsWith('o='));
}

export class CallFailure extends Error {
  constructor(readonly problem: CallProblem) {
    super(problem);
  }
}

export class CallSession {
  private pc: RTCPeerConnection | undefined;
  private signalling: Signalling | undefined;
  private view: CallView = {
    phase: 'starting',
    problem: null,
    local: null,
    remote: [],
    sharing: false,
    muted: false,
    endedByPeer: false,
  };
  private makingOffer = false;
  private ignoreOffer = false;
  private tracksAdded = false;
  /** The callee's offered senders, by kind, filled when its media comes. */
  private readonly senders = new Map<'audio' | 'video', RTCRtpSender>();
  private heardPeer = false;
  private readyTimer: ReturnType<typeof setInterval> | undefined;
  private screen: { stream: MediaStream; senders: RTCRtpSender[] } | undefined;
  private ended = false;

  private readonly listeners = new Set<(view: CallView) => void>();

  /** Done once start() has the link and (the caller) its media; set up in the constructor. */
  private setUp!: () => void;
  /**
   * What the peer said, taken one message at a time in order, once start() is done: an offer
   * that comes before this side listens fully is answered with its tracks, by a link that can
   * send, and no candidate is added before the description it belongs to.
   */
  private inbox: Promise<void>;

  constructor(private readonly o: CallOptions) {
    this.inbox = new Promise<void>((resolve) => (this.setUp = resolve));
  }

  private hear(signal: CallSignal): void {
    this.inbox = this.inbox.then(() => this.heard(signal)).catch(() => undefined);
  }

  /** The call as it is now. */
  get current(): CallView {
    return this.view;
  }

  /** Tells `listener` every change of the call's view; answers the way to stop. */
  listen(listener: (view: CallView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Takes the local media and connects the signalling at once (the caller's media may already be
   * on its way: `media`). The caller says `ready` once it listens and answers the callee's offer
   * with its tracks; the callee offers as soon as it listens, its camera joining the offered
   * senders when it comes (it starts while the connection is made).
   */
  async start(): Promise<void> {
    try {
      await this.begin();
    } finally {
      this.setUp();
    }
  }

  private async begin(): Promise<void> {
    const pc = this.makePeerConnection();
    // mqtt.js comes with the first call, not with the request's page.
    const link = import('./signalling').then(({ openSignalling }) =>
      openSignalling({
        accountId: this.o.accountId,
        callId: this.o.callId,
        userId: this.o.userId,
        peerId: this.o.peerId,
        onSignal: (signal) => this.hear(signal),
        onLost: () => {
          if (!this.ended) this.fail('signalling');
        },
      }).catch(() => {
        throw new CallFailure('signalling');
      }),
    );
    const media = this.o.media ?? localMedia(this.o.kind);
    if (this.o.polite) {
      // The offer is made while the camera starts and the link is taken; sent once it listens.
      this.offerSenders(pc);
      media.then(
        (stream) => this.mediaCame(pc, stream),
        (err: unknown) => this.fail(err instanceof CallFailure ? err.problem : 'media'),
      );
    }
    const [taken, signalling] = await Promise.allSettled([
      this.o.polite ? Promise.resolve(null) : media,
      link,
    ]);
    if (taken.status === 'fulfilled' && taken.value !== null) this.set({ local: taken.value });
    if (signalling.status === 'fulfilled') this.signalling = signalling.value;
    const failed = [taken, signalling].find((r) => r.status === 'rejected');
    if (failed !== undefined) {
      const reason: unknown = failed.reason;
      this.fail(reason instanceof CallFailure ? reason.problem : 'signalling');
      return;
    }
    if (this.ended) {
      this.end(false);
      return;
    }
    this.set({ phase: this.o.polite ? 'connecting' : 'waiting' });
    // The caller listens from the start; it says so once it does. The callee, who answers later,
    // offers as soon as it can: one hop less than waiting to be offered. The caller's tab keeps
    // what comes before its page has the call (signalling.ts); an offer lost all the same is sent
    // again on the caller's `ready`, or after a second.
    this.send({ type: 'ready' });
    if (this.o.polite) {
      // Made before this side listened, the offer went nowhere: it goes now (or, still being
      // made, when it is).
      this.offerAgain(pc);
      this.readyTimer = setInterval(() => this.offerAgain(pc), READY_EVERY_MS);
    }
  }

  /**
   * The callee's senders, offered before its camera and microphone are taken (a sender without
   * a track sends nothing until it gets one, with no new offer): one for each kind of its media.
   */
  private offerSenders(pc: RTCPeerConnection): void {
    this.tracksAdded = true;
    // One stream for both, so the other side shows them as one (a stream id in the offer).
    const outgoing = new MediaStream();
    for (const kind of ['audio', 'video'] as const)
      this.senders.set(
        kind,
        pc.addTransceiver(kind, { direction: 'sendrecv', streams: [outgoing] }).sender,
      );
  }

  /** The callee's camera and microphone came: shown here, and into the offered senders. */
  private mediaCame(pc: RTCPeerConnection, stream: MediaStream): void {
    if (this.ended || pc.signalingState === 'closed') {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    this.set({ local: stream });
    this.fillSenders(stream);
  }

  private fillSenders(stream: MediaStream): void {
    for (const track of stream.getTracks()) {
      const sender = this.senders.get(track.kind === 'audio' ? 'audio' : 'video');
      if (sender !== undefined && sender.track === null)
        void sender.replaceTrack(track).catch(() => undefined);
    }
  }

  /** The callee's offer again, while no answer came (it may have gone before the caller listened). */
  private offerAgain(pc: RTCPeerConnection): void {
    if (!this.heardPeer && pc.signalingState === 'have-local-offer' && pc.localDescription !== null)
      this.sendDescription(pc.localDescription);
  }

  private makePeerConnection(): RTCPeerConnection {
    const pc = new RTCPeerConnection({
      // One transport for every track: candidates gathered and sent once, not per track.
      bundlePolicy: 'max-bundle',
      iceServers: this.o.iceServers.map((server): RTCIceServer => ({
        urls: server.urls,
        ...(server.username === undefined ? {} : { username: server.username }),
        ...(server.credential === undefined ? {} : { credential: server.credential }),
      })),
    });
    this.pc = pc;
    pc.onicecandidate = ({ candidate }) => {
      if (candidate === null) return;
      const init = candidate.toJSON();
      this.send({
        type: 'candidate',
        candidate: {
          candidate: init.candidate ?? '',
          sdpMid: init.sdpMid ?? null,
          sdpMLineIndex: init.sdpMLineIndex ?? null,
          usernameFragment: init.usernameFragment ?? null,
        },
      });
    };
    pc.ontrack = ({ track, streams }) => {
      const stream = streams[0] ?? new MediaStream([track]);
      if (!this.view.remote.includes(stream)) this.set({ remote: [...this.view.remote, stream] });
      stream.onremovetrack = () => {
        if (stream.getTracks().length === 0)
          this.set({ remote: this.view.remote.filter((s) => s !== stream) });
      };
    };
    pc.onnegotiationneeded = async () => {
      try {
        this.makingOffer = true;
        await pc.setLocalDescription();
        if (pc.localDescription !== null) this.sendDescription(pc.localDescription);
      } finally {
        this.makingOffer = false;
      }
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'connected') this.set({ phase: 'connected' });
      else if (pc.connectionState === 'failed') this.end(false);
    };
    return pc;
  }

  /** Shares a screen besides the camera (the other side gets a second video). */
  async shareScreen(): Promise<void> {
    const pc = this.pc;
    if (pc === undefined || this.screen !== undefined) return;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getDisplayMedia({ video: true });
    } catch {
      this.set({ problem: 'screen' });
      return;
    }
    const senders = stream.getTracks().map((track) => pc.addTrack(track, stream));
    for (const track of stream.getTracks()) track.onended = () => this.stopSharing();
    this.screen = { stream, senders };
    this.set({ sharing: true, problem: null });
  }

  stopSharing(): void {
    const screen = this.screen;
    if (screen === undefined) return;
    this.screen = undefined;
    for (const sender of screen.senders) this.pc?.removeTrack(sender);
    for (const track of screen.stream.getTracks()) track.stop();
    this.set({ sharing: false });
  }

  toggleMute(): void {
    const muted = !this.view.muted;
    for (const track of this.view.local?.getAudioTracks() ?? []) track.enabled = !muted;
    this.set({ muted });
  }

  /** Ends the call here (hang up), telling the peer first (the server ends it after). */
  async hangUp(): Promise<void> {
    if (this.ended) return;
    await this.signalling?.sendNow({ type: 'bye' }, 2000);
    this.end(false);
  }

  /** The server says the call ended (the other side hung up or went away). */
  endedElsewhere(): void {
    if (this.ended) return;
    this.set({ endedByPeer: true });
    this.end(true);
  }

  private async heard(signal: CallSignal): Promise<void> {
    const pc = this.pc;
    if (pc === undefined || this.ended) return;
    switch (signal.type) {
      case 'ready':
        // The caller listens now: the callee's offer again, if it went before.
        if (this.o.polite) this.offerAgain(pc);
        return;
      case 'description': {
        this.heardPeer = true;
        const description = signal.description;
        // The callee's first offer sent again (the caller's `ready` crossed it), perhaps with
        // more candidates: answered already (a new offer has a new version in its origin line).
        if (
          description.type === 'offer' &&
          pc.remoteDescription !== null &&
          originOf(description.sdp) === originOf(pc.remoteDescription.sdp)
        )
          return;
        const collision =
          description.type === 'offer' && (this.makingOffer || pc.signalingState !== 'stable');
        this.ignoreOffer = !this.o.polite && collision;
        if (this.ignoreOffer) return;
        await pc.setRemoteDescription({
          type: description.type,
          ...(description.sdp === undefined ? {} : { sdp: description.sdp }),
        });
        if (description.type === 'offer') {
          if (!this.tracksAdded) this.addTracks(pc);
          await pc.setLocalDescription();
          if (pc.localDescription !== null) this.sendDescription(pc.localDescription);
        }
        return;
      }
      case 'candidate':
        try {
          const c = signal.candidate;
          await pc.addIceCandidate({
            candidate: c.candidate,
            sdpMid: c.sdpMid ?? null,
            sdpMLineIndex: c.sdpMLineIndex ?? null,
            usernameFragment: c.usernameFragment ?? null,
          });
        } catch (err) {
          if (!this.ignoreOffer) throw err;
        }
        return;
      case 'bye':
        this.set({ endedByPeer: true });
        this.end(true);
        return;
    }
  }

  private addTracks(pc: RTCPeerConnection): void {
    this.tracksAdded = true;
    const local = this.view.local;
    if (local === null) return;
    for (const track of local.getTracks()) pc.addTrack(track, local);
    if (this.view.phase === 'waiting') this.set({ phase: 'connecting' });
  }

  private sendDescription(description: RTCSessionDescription): void {
    this.send({
      type: 'description',
      description: {
        type: description.type,
        ...(description.sdp === '' ? {} : { sdp: description.sdp }),
      },
    });
  }

  private send(signal: OutgoingSignal): void {
    this.signalling?.send(signal);
  }

  private fail(problem: CallProblem): void {
    this.set({ problem });
    this.end(false);
  }

  private end(byPeer: boolean): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.readyTimer);
    this.stopSharing();
    for (const track of this.view.local?.getTracks() ?? []) track.stop();
    this.pc?.close();
    this.signalling?.close();
    this.set({ phase: 'ended', endedByPeer: byPeer || this.view.endedByPeer });
    this.o.onEnded();
  }

  private set(change: Partial<CallView>): void {
    this.view = { ...this.view, ...change };
    for (const listener of this.listeners) listener(this.view);
  }
}
