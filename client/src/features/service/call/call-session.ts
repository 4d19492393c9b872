import type { CallKind, CallSignal, IceServer } from '@plant/shared-schema';
import type { OutgoingSignal, Signalling } from './signalling';
import { loadSignalling } from './signalling-chunk';

/*
 * One call in the browser (issue 34 item 3): WebRTC to the other party, its signalling over the
 * broker (signalling.ts). The caller's offer is made before its click (OfferPrimer: a peer
 * connection with its senders, its offer and its candidates ready while the request's page is
 * open) and goes with the call's start: the server rings the agent with it, the agent's tab
 * keeps it until the agent answers (signalling.ts), so the agent's answer is the call's only
 * message over the broker before the media flows. Without a primed offer (just opened, still
 * gathering) the caller offers at its click and sends the offer once the server named the agent.
 * The offer goes again on the agent's `ready` (it says so once it listens, when it has no offer)
 * and every few seconds until an answer comes (a message sent while the other side's link was
 * down is lost). After that either side may offer when it adds or removes a track (a screen), by
 * the "perfect negotiation" pattern: the agent (callee) is polite, the caller not.
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

/** A call as the server made it: its id and the other party. */
export interface CallPeer {
  readonly callId: string;
  readonly peerId: string;
}

export interface CallOptions {
  readonly accountId: string;
  readonly userId: string;
  /**
   * The call and its other party: known at once (the agent's), or once the server found the
   * agent (the caller's session starts at the click; null: no call was made, it ends quietly).
   */
  readonly peer: Promise<CallPeer | null>;
  /** The agent's side: it answers the caller's offer, and yields when both offer at once. */
  readonly polite: boolean;
  readonly kind: CallKind;
  readonly iceServers: Promise<readonly IceServer[]>;
  /** The local media, already asked for (the caller's, while the server sets the call up). */
  readonly media?: Promise<MediaStream>;
  /** The caller's primed connection (OfferPrimer.take), its offer sent with the call's start. */
  readonly primed?: RTCPeerConnection;
  /** The agent's connection with its answer made at the ring (AnswerPrimer.take). */
  readonly answered?: Promise<AnsweredCall | undefined>;
  /** Told once, when a call that was made ends here or there (the page tells the server). */
  readonly onEnded: (peer: CallPeer) => void;
}

/** How often the caller offers again until the agent's answer comes. */
const OFFER_AGAIN_MS = 2000;
/** At most this many candidates are kept while the signalling opens (a call gathers a few). */
const UNSENT_MAX = 100;
/** A primed connection is made anew after this (its candidates may no longer be the network's). */
const PRIMED_FOR_MS = 5 * 60_000;

/** A peer connection for a call: one transport for every track, the call's ICE servers. */
function newPeerConnection(iceServers: readonly IceServer[]): RTCPeerConnection {
  return new RTCPeerConnection({
    // One transport for every track: candidates gathered and sent once, not per track.
    bundlePolicy: 'max-bundle',
    iceServers: iceServers.map((server): RTCIceServer => ({
      urls: server.urls,
      ...(server.username === undefined ? {} : { username: server.username }),
      ...(server.credential === undefined ? {} : { credential: server.credential }),
    })),
  });
}

/**
 * A caller's peer connection made before the click (while a request's call panel is open and no
 * call runs): a sending transceiver for audio and one for video, the offer set and its
 * candidates gathered, so the click sends the offer with the call's start and the agent answers
 * as its page rings. Made anew every few minutes; closed when the panel lets it go untaken.
 */
export class OfferPrimer {
  private pc: RTCPeerConnection | undefined;
  private closed = false;
  private renew: ReturnType<typeof setTimeout> | undefined;

  /** `onReady`: told each time a connection is ready to be taken. */
  constructor(
    private readonly iceServers: Promise<readonly IceServer[]>,
    private readonly onReady: () => void = () => undefined,
  ) {
    this.make();
  }

  private make(): void {
    const made = this.iceServers.then(async (servers) => {
      if (this.closed) return;
      let pc: RTCPeerConnection;
      try {
        pc = newPeerConnection(servers);
      } catch {
        return; // No WebRTC here, or servers it refuses: the call makes its own and says why.
      }
      this.pc = pc;
      const stream = new MediaStream();
      for (const kind of ['audio', 'video'] as const)
        pc.addTransceiver(kind, { direction: 'sendrecv', streams: [stream] });
      try {
        await pc.setLocalDescription();
      } catch {
        // Closed meanwhile: let go, or made anew.
      }
      if (this.closed || this.pc !== pc) return;
      this.renew = setTimeout(() => {
        if (this.pc === pc) this.pc = undefined;
        pc.close();
        this.make();
      }, PRIMED_FOR_MS);
      if (pc.iceGatheringState === 'complete') this.onReady();
      else
        pc.addEventListener('icegatheringstatechange', () => {
          if (this.pc === pc && pc.iceGatheringState === 'complete') this.onReady();
        });
    });
    // The ICE servers could not be read (their chunk did not load): the call makes its own.
    made.catch(() => undefined);
  }

  /**
   * The connection and its offer, once both are ready with every candidate in it (else none:
   * the call makes its own). Taken once; the primer makes no other.
   */
  take(): { readonly pc: RTCPeerConnection; readonly offer: string } | undefined {
    const pc = this.pc;
    this.pc = undefined;
    this.close();
    const offer = pc?.localDescription;
    if (
      pc === undefined ||
      offer?.type !== 'offer' ||
      offer.sdp === '' ||
      pc.iceGatheringState !== 'complete' ||
      pc.signalingState !== 'have-local-offer'
    ) {
      pc?.close();
      return undefined;
    }
    return { pc, offer: offer.sdp };
  }

  /** Lets the connection go (a taken one is the call's). */
  close(): void {
    this.closed = true;
    clearTimeout(this.renew);
    this.pc?.close();
    this.pc = undefined;
  }
}

/** A remote track as `ontrack` tells it. */
interface RemoteTrack {
  readonly track: MediaStreamTrack;
  readonly streams: readonly MediaStream[];
}

/** The agent's connection with its answer made at the ring, and what it has gathered since. */
export interface AnsweredCall {
  readonly pc: RTCPeerConnection;
  /** The answer, sent as it is made: the connection applies it meanwhile (`applied`). */
  readonly answer: string;
  /** False once applying the answer failed (the connection then cannot connect). */
  readonly applied: Promise<boolean>;
  /** The caller's tracks, told as its offer was applied. */
  readonly tracks: readonly RemoteTrack[];
  /** This side's candidates gathered before the call took the connection, in order. */
  readonly candidates: readonly RTCIceCandidate[];
}

/** How long after a spare connection is taken the next one is made (not in the call's set-up). */
const SPARE_AGAIN_MS = 5_000;

/**
 * One peer connection made ahead, while an agent's page listens for rings, for the next ring's
 * answer: making it at the ring (its certificate, its threads' start) was 10 to 30 ms of the
 * call's set-up. It has no description, so it gathers no candidates and sends nothing (with
 * TURN servers it holds no relay). The next one is made a while after one is taken.
 */
export class SpareConnection {
  private ready:
    { readonly pc: RTCPeerConnection; readonly servers: readonly IceServer[] } | undefined;
  private closed = false;
  private again: ReturnType<typeof setTimeout> | undefined;

  /**
   * `iceServers`: asked again for each connection and at each take (the call's configuration,
   * read once per tab once it was read; a failed read answers none and is tried again).
   */
  constructor(private readonly iceServers: () => Promise<readonly IceServer[]>) {
    this.makeAhead();
  }

  private makeAhead(): void {
    void this.iceServers()
      .then((servers) => {
        if (this.closed || this.ready !== undefined) return;
        this.ready = { pc: newPeerConnection(servers), servers };
      })
      .catch(() => undefined);
  }

  /**
   * The connection made ahead, if it was made with the ICE servers the tab has now (one made
   * while the configuration could not be read has none), else one made now; undefined: none can
   * be made here.
   */
  async take(): Promise<RTCPeerConnection | undefined> {
    const ready = this.ready;
    this.ready = undefined;
    clearTimeout(this.again);
    if (!this.closed) this.again = setTimeout(() => this.makeAhead(), SPARE_AGAIN_MS);
    try {
      const servers = await this.iceServers();
      if (ready !== undefined && ready.servers === servers && ready.pc.signalingState === 'stable')
        return ready.pc;
      ready?.pc.close();
      return this.closed ? undefined : newPeerConnection(servers);
    } catch {
      ready?.pc.close();
      return undefined;
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.again);
    this.ready?.pc.close();
    this.ready = undefined;
  }
}

/**
 * The agent's answer made as its page rings: the caller's offer came with the ring, so a peer
 * connection (made ahead: SpareConnection) takes it, its transceivers are made to send (without
 * a track: nothing of the agent's camera or microphone goes out before its Answer) and its
 * answer is made; the Answer sends that answer at once, while the connection still applies it
 * (applying it took 20 to 50 ms of the set-up, and the answer is the same before and after).
 * Its candidates are kept until the call takes the connection and sends them after the answer.
 * As with any answerer, its ICE checks reach the caller before the answer does, and the
 * caller's media may reach this page before the Answer; it is shown only in the call. Made
 * only while the page is seen; closed when the ring ends unanswered.
 */
export class AnswerPrimer {
  private pc: RTCPeerConnection | undefined;
  private closed = false;
  private taken = false;
  private readonly made: Promise<Pick<AnsweredCall, 'pc' | 'answer' | 'applied'> | undefined>;
  /** The caller's tracks, told as the offer was applied (the session shows them). */
  private readonly tracks: RemoteTrack[] = [];
  private readonly candidates: RTCIceCandidate[] = [];

  constructor(connection: Promise<RTCPeerConnection | undefined>, offer: string) {
    this.made = connection
      .then(async (pc) => {
        if (pc === undefined || this.closed) {
          pc?.close();
          return undefined;
        }
        this.pc = pc;
        pc.ontrack = ({ track, streams }) => this.tracks.push({ track, streams });
        pc.onicecandidate = ({ candidate }) => {
          if (candidate !== null) this.candidates.push(candidate);
        };
        await pc.setRemoteDescription({ type: 'offer', sdp: offer });
        // One stream for both tracks, as the session's own answer sends them.
        const outgoing = new MediaStream();
        for (const transceiver of pc.getTransceivers()) {
          transceiver.direction = 'sendrecv';
          if (typeof transceiver.sender.setStreams === 'function')
            transceiver.sender.setStreams(outgoing);
        }
        const answer = await pc.createAnswer();
        if (this.closed || answer.sdp === undefined || answer.sdp === '') return undefined;
        const applied = pc.setLocalDescription(answer).then(
          () => true,
          () => false,
        );
        return { pc, answer: answer.sdp, applied };
      })
      .catch(() => undefined)
      .then((made) => {
        // Not made (an offer it refused, no WebRTC), or closed meanwhile: the call makes its own.
        if (made === undefined) this.pc?.close();
        return made;
      });
  }

  /**
   * The connection with its answer made, and what it told so far, once it is (undefined: the
   * call makes its own). Taken once; closing the primer after does not close it.
   */
  take(): Promise<AnsweredCall | undefined> {
    if (this.closed || this.taken) return Promise.resolve(undefined);
    this.taken = true;
    return this.made.then((made) => {
      if (made !== undefined && made.pc.signalingState !== 'closed')
        return { ...made, tracks: this.tracks, candidates: this.candidates };
      made?.pc.close();
      return undefined;
    });
  }

  /** Lets the connection go (a taken one is the call's). */
  close(): void {
    if (this.taken) return;
    this.closed = true;
    this.pc?.close();
    this.pc = undefined;
  }
}

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
  /** The agent heard the caller's offer (kept from the ring, or come over the broker). */
  private offerHeard = false;
  /** This side's senders of its camera (or screen) and microphone, filled when its media comes. */
  private readonly senders = new Map<'audio' | 'video', RTCRtpSender>();
  /** The one stream this side's media goes out in (the other side shows them as one). */
  private readonly outgoing = new MediaStream();
  /** The other side's tracks that came without a stream (a browser without `setStreams`). */
  private loose: MediaStream | undefined;
  private offerTimer: ReturnType<typeof setInterval> | undefined;
  /** This side's candidates gathered before its signalling was open, sent once it is. */
  private unsent: OutgoingSignal[] = [];
  private screen: { stream: MediaStream; senders: RTCRtpSender[] } | undefined;
  private ended = false;

  private readonly listeners = new Set<(view: CallView) => void>();

  /** Done once start() has the link (or failed); set up in the constructor. */
  private setUp!: () => void;
  /**
   * What the peer said, taken one message at a time in order, once start() is done: an offer
   * that comes before this side listens fully is answered by a link that can send, and no
   * candidate is added before the description it belongs to.
   */
  private inbox: Promise<void>;

  constructor(private readonly o: CallOptions) {
    this.inbox = new Promise<void>((resolve) => (this.setUp = resolve));
  }

  private hear(signal: CallSignal): void {
    if (signal.type === 'description' && signal.description.type === 'offer')
      this.offerHeard = true;
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
   * on its way: `media`); the media joins the senders when it comes, the connection is made
   * meanwhile. The caller adopts its primed connection (its offer went with the call's start) or
   * offers at once and sends the offer once it listens; the agent answers the offer its tab kept
   * (from the ring, or come over the broker), or says `ready` once it listens and answers the
   * offer when it comes.
   */
  async start(): Promise<void> {
    try {
      await this.begin();
    } catch {
      // The call's code could not be loaded, or the ICE servers make no peer connection.
      this.fail('signalling');
    } finally {
      this.setUp();
    }
  }

  private async begin(): Promise<void> {
    // mqtt.js comes with the first call (or the request's panel), not with the request's page.
    const code = loadSignalling();
    (this.o.media ?? localMedia(this.o.kind)).then(
      (stream) => this.mediaCame(stream),
      (err: unknown) => this.fail(err instanceof CallFailure ? err.problem : 'media'),
    );
    const primed = this.o.primed;
    // The agent's answer made at the ring goes as soon as the link is there.
    const answered = this.o.answered === undefined ? undefined : await this.o.answered;
    if (this.ended) {
      answered?.pc.close();
      return;
    }
    let pc: RTCPeerConnection;
    if (primed !== undefined) pc = this.adopt(primed);
    else if (answered !== undefined) {
      pc = this.adopt(answered.pc);
      this.offerHeard = true;
      for (const { track, streams } of answered.tracks) this.trackCame(track, streams);
      // Gathered before the session listened: they go after the answer, as later ones do.
      for (const candidate of answered.candidates) this.sendCandidate(candidate);
      void answered.applied.then((ok) => {
        if (!ok) this.end(false);
      });
    } else {
      const servers = await this.o.iceServers;
      if (this.ended) return;
      pc = this.makePeerConnection(servers);
      // The caller's offer is made while its camera starts and the server finds the agent; sent
      // once it listens.
      if (!this.o.polite) this.offerSenders(pc);
    }
    const peer = await this.o.peer;
    if (peer === null || this.ended) {
      this.end(false);
      return;
    }
    try {
      const { openSignalling } = await code;
      this.signalling = await openSignalling({
        accountId: this.o.accountId,
        callId: peer.callId,
        userId: this.o.userId,
        peerId: peer.peerId,
        onSignal: (signal) => this.hear(signal),
        onLost: () => {
          if (!this.ended) this.fail('signalling');
        },
      });
    } catch {
      this.fail('signalling');
      return;
    }
    if (this.ended) {
      // Hung up (or failed) while the link was taken: it is let go here, end() had none.
      this.signalling.close();
      return;
    }
    this.set({ phase: this.o.polite ? 'connecting' : 'waiting' });
    // The agent with the caller's offer in hand answers it: no `ready` needed.
    if (this.o.polite) {
      if (answered !== undefined)
        this.send({ type: 'description', description: { type: 'answer', sdp: answered.answer } });
      else if (!this.offerHeard) this.send({ type: 'ready' });
    } else {
      // Made before this side listened, the offer went nowhere: it goes now (or, still being
      // made, when it is), and again until the agent answers. A primed offer went with the
      // call's start (the agent's tab has it): only again, if no answer comes.
      if (primed === undefined) this.offerAgain(pc);
      this.offerTimer = setInterval(() => this.offerAgain(pc), OFFER_AGAIN_MS);
    }
    // Candidates gathered before it listened, after its description.
    const unsent = this.unsent;
    this.unsent = [];
    for (const signal of unsent) this.signalling.send(signal);
  }

  /**
   * The caller's senders, offered before its media is taken (a sender without a track sends
   * nothing until it gets one, with no new offer): one for each kind of its media.
   */
  private offerSenders(pc: RTCPeerConnection): void {
    for (const kind of ['audio', 'video'] as const)
      this.senders.set(
        kind,
        pc.addTransceiver(kind, { direction: 'sendrecv', streams: [this.outgoing] }).sender,
      );
    if (this.view.local !== null) this.fillSenders(this.view.local);
  }

  /**
   * The agent's senders: the offer's own transceivers, made to send too (before the answer is
   * made), their tracks given when the agent's camera comes.
   */
  private answerSenders(pc: RTCPeerConnection): void {
    for (const transceiver of pc.getTransceivers()) {
      const kind = transceiver.receiver.track.kind === 'audio' ? 'audio' : 'video';
      if (this.senders.has(kind) || transceiver.currentDirection !== null) continue;
      transceiver.direction = 'sendrecv';
      // Without `setStreams` the other side puts the tracks together itself (ontrack).
      if (typeof transceiver.sender.setStreams === 'function')
        transceiver.sender.setStreams(this.outgoing);
      this.senders.set(kind, transceiver.sender);
    }
    if (this.view.local !== null) this.fillSenders(this.view.local);
  }

  /** This side's camera and microphone (or screen) came: shown here, and into its senders. */
  private mediaCame(stream: MediaStream): void {
    if (this.ended) {
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

  /** The caller's offer again, while no answer came (it may have gone before the agent listened). */
  private offerAgain(pc: RTCPeerConnection): void {
    // Answered once (a remote description applied), it goes no more.
    if (
      pc.currentRemoteDescription === null &&
      pc.signalingState === 'have-local-offer' &&
      pc.localDescription !== null
    )
      this.sendDescription(pc.localDescription);
  }

  /**
   * A connection made before the session (the caller's primed offer, the agent's answer made at
   * the ring): its senders filled when the media comes.
   */
  private adopt(pc: RTCPeerConnection): RTCPeerConnection {
    this.wire(pc);
    for (const transceiver of pc.getTransceivers())
      this.senders.set(
        transceiver.receiver.track.kind === 'audio' ? 'audio' : 'video',
        transceiver.sender,
      );
    if (this.view.local !== null) this.fillSenders(this.view.local);
    return pc;
  }

  private makePeerConnection(iceServers: readonly IceServer[]): RTCPeerConnection {
    const pc = newPeerConnection(iceServers);
    this.wire(pc);
    return pc;
  }

  /** This session's handlers on its connection. */
  private wire(pc: RTCPeerConnection): void {
    this.pc = pc;
    pc.onicecandidate = ({ candidate }) => {
      if (candidate !== null) this.sendCandidate(candidate);
    };
    pc.ontrack = ({ track, streams }) => this.trackCame(track, streams);
    pc.onnegotiationneeded = async () => {
      try {
        this.makingOffer = true;
        await pc.setLocalDescription();
        if (pc.localDescription !== null) this.sendDescription(pc.localDescription);
      } catch {
        // Closed while the offer was made: the call ended.
      } finally {
        this.makingOffer = false;
      }
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'connected') this.set({ phase: 'connected' });
      else if (pc.connectionState === 'failed') this.end(false);
    };
  }

  /** A track of the other side came: shown in its stream. */
  private trackCame(track: MediaStreamTrack, streams: readonly MediaStream[]): void {
    let stream = streams[0];
    if (stream === undefined) {
      this.loose ??= new MediaStream();
      this.loose.addTrack(track);
      stream = this.loose;
    }
    const shown = stream;
    if (!this.view.remote.includes(shown)) this.set({ remote: [...this.view.remote, shown] });
    shown.onremovetrack = () => {
      if (shown.getTracks().length === 0)
        this.set({ remote: this.view.remote.filter((s) => s !== shown) });
    };
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
    // Transceivers of its own, sending only: never the camera's (an `addTrack` may take the
    // camera's transceiver while that has no track yet, or the offer's video line).
    const senders = stream
      .getTracks()
      .map(
        (track) => pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] }).sender,
      );
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
        // The agent listens now: the caller's offer again, if it went before.
        if (!this.o.polite) this.offerAgain(pc);
        return;
      case 'description': {
        const description = signal.description;
        // The caller's first offer sent again (the agent's `ready` crossed it), perhaps with
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
          this.answerSenders(pc);
          await pc.setLocalDescription();
          if (pc.localDescription !== null) this.sendDescription(pc.localDescription);
        } else {
          clearInterval(this.offerTimer);
          if (this.view.phase === 'waiting') this.set({ phase: 'connecting' });
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

  private sendDescription(description: RTCSessionDescription): void {
    this.send({
      type: 'description',
      description: {
        type: description.type,
        ...(description.sdp === '' ? {} : { sdp: description.sdp }),
      },
    });
  }

  /** Sent now, or kept until the signalling is open (a bounded number). */
  private sendCandidate(candidate: RTCIceCandidate): void {
    const init = candidate.toJSON();
    const signal: OutgoingSignal = {
      type: 'candidate',
      candidate: {
        candidate: init.candidate ?? '',
        sdpMid: init.sdpMid ?? null,
        sdpMLineIndex: init.sdpMLineIndex ?? null,
        usernameFragment: init.usernameFragment ?? null,
      },
    };
    if (this.signalling !== undefined) this.signalling.send(signal);
    else if (!this.ended && this.unsent.length < UNSENT_MAX) this.unsent.push(signal);
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
    clearInterval(this.offerTimer);
    this.stopSharing();
    for (const track of this.view.local?.getTracks() ?? []) track.stop();
    this.pc?.close();
    this.signalling?.close();
    this.set({ phase: 'ended', endedByPeer: byPeer || this.view.endedByPeer });
    // Told once the call is made (the caller's may still be in the making: its camera failed at
    // once); a call never made ends quietly.
    void this.o.peer.then((peer) => {
      if (peer !== null) this.o.onEnded(peer);
    });
  }

  private set(change: Partial<CallView>): void {
    this.view = { ...this.view, ...change };
    for (const listener of this.listeners) listener(this.view);
  }
}
