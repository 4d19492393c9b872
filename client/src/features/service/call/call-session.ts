import type { CallKind, CallSignal, IceServer } from '@plant/shared-schema';
import type { OutgoingSignal, Signalling } from './signalling';

/*
 * One call in the browser (issue 34 item 3): WebRTC to the other party, its signalling over the
 * broker (signalling.ts). The callee says `ready` until the first offer comes (a message sent
 * before the other listens is lost: the caller listens from the start, the callee from its
 * answer), the caller then adds its tracks and offers; after that either side may offer when it
 * adds or removes a track (a screen), by the "perfect negotiation" pattern: the agent (callee)
 * is polite, the caller is not.
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
  readonly onView: (view: CallView) => void;
  /** Told once, when the call ends here or there (the server is told by the page). */
  readonly onEnded: () => void;
}

/** How often the callee says `ready` until the caller's offer comes. */
const READY_EVERY_MS = 1000;

/** The local media of a call's kind: camera and microphone, or a screen and the microphone. */
async function localMedia(kind: CallKind): Promise<MediaStream> {
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
  private heardPeer = false;
  private readyTimer: ReturnType<typeof setInterval> | undefined;
  private screen: { stream: MediaStream; senders: RTCRtpSender[] } | undefined;
  private ended = false;

  constructor(private readonly o: CallOptions) {}

  /** Takes the local media, connects the signalling, and waits for (or calls) the peer. */
  async start(): Promise<void> {
    try {
      const local = await localMedia(this.o.kind);
      if (this.ended) {
        for (const track of local.getTracks()) track.stop();
        return;
      }
      this.set({ local });
      const pc = new RTCPeerConnection({
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
      // mqtt.js comes with the first call, not with the request's page.
      const { openSignalling } = await import('./signalling');
      this.signalling = await openSignalling({
        accountId: this.o.accountId,
        callId: this.o.callId,
        userId: this.o.userId,
        peerId: this.o.peerId,
        onSignal: (signal) => void this.heard(signal),
        onLost: () => {
          if (!this.ended) this.fail('signalling');
        },
      }).catch(() => {
        throw new CallFailure('signalling');
      });
      if (this.ended) {
        this.signalling.close();
        return;
      }
      this.set({ phase: this.o.polite ? 'connecting' : 'waiting' });
      if (this.o.polite) {
        this.send({ type: 'ready' });
        this.readyTimer = setInterval(() => {
          if (!this.heardPeer) this.send({ type: 'ready' });
        }, READY_EVERY_MS);
      }
    } catch (err) {
      this.fail(err instanceof CallFailure ? err.problem : 'signalling');
    }
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
        // The callee listens: the caller's tracks go in, and with them its offer.
        if (!this.o.polite && !this.tracksAdded) this.addTracks(pc);
        return;
      case 'description': {
        this.heardPeer = true;
        const description = signal.description;
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
    this.o.onView(this.view);
  }
}
