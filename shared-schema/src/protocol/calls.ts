import { z } from 'zod';
import { deferred } from '../deferred';

/*
 * Calls of service requests (issue 34 item 3, DESIGN.md §14): WebRTC between the two browsers,
 * the signalling over the broker (topics.callInbox), ICE servers from the server's ICE_SERVERS.
 */

/** One STUN or TURN server as RTCPeerConnection takes it. */
export const iceServerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    urls: z.union([
      z.string().regex(/^(stun|stuns|turn|turns):/),
      z
        .array(z.string().regex(/^(stun|stuns|turn|turns):/))
        .min(1)
        .max(8),
    ]),
    username: z.string().max(200).optional(),
    credential: z.string().max(200).optional(),
  }),
);
export type IceServer = z.output<typeof iceServerSchema>;

export const iceServersSchema = /* @__PURE__ */ deferred(() => z.array(iceServerSchema).max(8));

/** GET calls/config. */
export const callConfigSchema = /* @__PURE__ */ deferred(() =>
  z.object({ ice_servers: iceServersSchema }),
);
export type CallConfig = z.output<typeof callConfigSchema>;

export const callKindSchema = /* @__PURE__ */ deferred(() => z.enum(['video', 'screen']));
export type CallKind = z.output<typeof callKindSchema>;

/** The largest signalling message a browser may publish (an SDP with many candidates fits). */
export const CALL_SIGNAL_MAX_BYTES = 64 * 1024;

/** The longest offer a call's start carries (half a request body: a browser's SDP is ~6 KB). */
export const CALL_OFFER_MAX_LENGTH = 32 * 1024;

/** An SDP offer's text: it starts with its version line. */
const sdpOfferSchema = /* @__PURE__ */ deferred(() =>
  z
    .string()
    .max(CALL_OFFER_MAX_LENGTH)
    .regex(/^v=0\r?\n/),
);

/**
 * POST service_requests/{id}/calls. `offer`: the caller's SDP offer, made before its click
 * (call-session.ts primes one while the request's page is open), passed to the agent in the
 * ring: the agent answers without waiting for it to come over the broker.
 */
export const callStartSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    kind: callKindSchema.default('video'),
    offer: sdpOfferSchema.optional(),
  }),
);

/** Its answer: the call, the other party, and the ICE servers. */
export const serviceCallStartSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    call_id: z.string(),
    request_id: z.string(),
    peer: z.object({ user_id: z.string(), name: z.string() }),
    ice_servers: iceServersSchema,
  }),
);
export type ServiceCallStart = z.output<typeof serviceCallStartSchema>;

/**
 * A call ringing for its agent, as the agent's browser hears it (topics.callRing): the call, its
 * request, who calls and how. The broker passes it only to the agent's own links.
 */
export const callRingSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    call_id: z.string().max(64),
    request_id: z.string().max(64),
    caller: z.object({ user_id: z.string().max(64), name: z.string().max(400) }),
    kind: callKindSchema,
    /** The caller's offer, when it sent one with its call (the agent's first signal of it). */
    offer: sdpOfferSchema.optional(),
  }),
);
export type CallRing = z.output<typeof callRingSchema>;
/** At most this many signalling messages a second per connection (ICE candidates come in bursts). */
export const CALL_SIGNALS_PER_SECOND = 50;

/**
 * One signalling message, from one party to the other: `ready` (the callee listens; sent again
 * until an offer comes), the offer and answer (perfect negotiation: either side may offer when
 * it adds a track, a screen say), ICE candidates, `bye`.
 */
export const callSignalSchema = /* @__PURE__ */ deferred(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ready'), from: z.string().max(64) }),
    z.strictObject({
      type: z.literal('description'),
      from: z.string().max(64),
      description: z.strictObject({
        type: z.enum(['offer', 'answer', 'pranswer', 'rollback']),
        sdp: z.string().max(CALL_SIGNAL_MAX_BYTES).optional(),
      }),
    }),
    z.strictObject({
      type: z.literal('candidate'),
      from: z.string().max(64),
      candidate: z.strictObject({
        candidate: z.string().max(2000),
        sdpMid: z.string().max(64).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
        usernameFragment: z.string().max(256).nullable().optional(),
      }),
    }),
    z.strictObject({ type: z.literal('bye'), from: z.string().max(64) }),
  ]),
);
export type CallSignal = z.output<typeof callSignalSchema>;
