import {
  CALL_SIGNAL_MAX_BYTES,
  CALL_SIGNALS_PER_SECOND,
  callSignalSchema,
} from '@plant/shared-schema';

/*
 * A call's signalling through the broker (issue 34 item 3): each party's inbox is
 * `account/{a}/calls/{callId}/to/{userId}`. A browser subscribes to its own inboxes of every call
 * (`calls/+/to/{userId}`, made ready before any call: no subscription stands between a call and
 * its first message) or to its own inbox of one call it is a party of, and publishes to the other
 * party's inbox of a call that lasts; every message is checked against the shared schema, its
 * `from` set to the publisher's user (no party speaks for another), and bounded in size and rate.
 */

const ID = '[A-Za-z0-9_-]{1,64}';

/** The call and the inbox's user a topic of the account names, or undefined. */
export function callTopicOf(
  accountId: string,
  topic: string,
): { readonly callId: string; readonly userId: string } | undefined {
  const prefix = `account/${accountId}/calls/`;
  if (!topic.startsWith(prefix)) return undefined;
  const match = new RegExp(`^(${ID})/to/(${ID})$`).exec(topic.slice(prefix.length));
  if (match === null) return undefined;
  return { callId: match[1] ?? '', userId: match[2] ?? '' };
}

/** The user whose inboxes of every call of the account a topic names (`calls/+/to/{u}`). */
export function callInboxesOf(accountId: string, topic: string): string | undefined {
  const prefix = `account/${accountId}/calls/+/to/`;
  if (!topic.startsWith(prefix)) return undefined;
  const user = topic.slice(prefix.length);
  return new RegExp(`^${ID}$`).test(user) ? user : undefined;
}

/** The parties of a call that still lasts (service/calls.ts), for the ACL. */
export interface CallLookup {
  partiesOf(
    accountId: string,
    callId: string,
  ): Promise<{ readonly callerId: string; readonly agentId: string } | undefined>;
}

/** The other party of the call for this user, or undefined when it is no party. */
export function peerOf(
  parties: { readonly callerId: string; readonly agentId: string },
  userId: string,
): string | undefined {
  if (parties.callerId === userId) return parties.agentId;
  if (parties.agentId === userId) return parties.callerId;
  return undefined;
}

/**
 * A message a browser publishes to its peer, as it is passed on: valid by the schema, under the
 * size limit, its `from` the publisher's; undefined when it is none of that.
 */
export function signalToPass(payload: Buffer, userId: string): Buffer | undefined {
  if (payload.length > CALL_SIGNAL_MAX_BYTES) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = callSignalSchema.safeParse(json);
  if (!parsed.success) return undefined;
  return Buffer.from(JSON.stringify({ ...parsed.data, from: userId }));
}

/** Per connection, at most CALL_SIGNALS_PER_SECOND messages a second (a bucket of one second). */
export class SignalRate {
  private tokens = CALL_SIGNALS_PER_SECOND;
  private at = 0;

  take(now: number): boolean {
    this.tokens = Math.min(
      CALL_SIGNALS_PER_SECOND,
      this.tokens + ((now - this.at) / 1000) * CALL_SIGNALS_PER_SECOND,
    );
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
