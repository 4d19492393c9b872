import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import webpush from 'web-push';
import type { Logger } from '../../logger';
import { isoAt, type Clock } from '../../lib/clock';
import type {
  PushSubscriptionRepository,
  PushSubscriptionRow,
} from '../../repositories/push-subscription.repository';
import {
  PermanentDeliveryError,
  type Channel,
  type OutgoingMessage,
  type Recipient,
  type SendOutcome,
} from '../contract';
import { endpointIsPublic, publicOnlyLookup } from './public-address';
import type { VapidKeys } from './vapid-keys';

/** A push waits at the push service at most a day for an offline device; later it is stale. */
export const PUSH_TTL_S = 24 * 60 * 60;
export const PUSH_TIMEOUT_MS = 10_000;
/**
 * Push services take at most 4096 bytes of encrypted record (RFC 8291 §4); the JSON stays well
 * under that after the record's own overhead.
 */
export const PUSH_PAYLOAD_MAX_BYTES = 3000;

/** What the service worker gets (issue 17 item 6 shows it and opens `url` on click). */
export interface PushPayload {
  readonly title: string;
  readonly body: string;
  readonly url: string;
  readonly tag: string;
  readonly severity: OutgoingMessage['severity'];
}

/** The payload as JSON within PUSH_PAYLOAD_MAX_BYTES: a long body is cut, never the link. */
export function pushPayload(message: OutgoingMessage): string {
  const payload: PushPayload = {
    title: message.subject,
    body: message.text,
    url: message.url,
    tag: message.tag,
    severity: message.severity,
  };
  let json = JSON.stringify(payload);
  let chars = Array.from(payload.body);
  while (Buffer.byteLength(json) > PUSH_PAYLOAD_MAX_BYTES && chars.length > 0) {
    const over = Buffer.byteLength(json) - PUSH_PAYLOAD_MAX_BYTES;
    chars = chars.slice(0, Math.max(0, chars.length - Math.max(over, 16) - 1));
    json = JSON.stringify({ ...payload, body: `${chars.join('')}…` });
  }
  return json;
}

/** The push service's Topic header: one per tag, so a newer push replaces an undelivered one. */
function topicOf(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

/** Keys a browser can have made: a P-256 point and an auth secret of at least 16 bytes. */
function usable(row: PushSubscriptionRow): boolean {
  const key = Buffer.from(row.public_key, 'base64url');
  return (
    key.length === 65 &&
    key[0] === 0x04 &&
    Buffer.from(row.auth_token, 'base64url').length >= 16 &&
    (row.content_encoding === 'aes128gcm' || row.content_encoding === 'aesgcm')
  );
}

export interface PushChannelOptions {
  readonly subscriptions: PushSubscriptionRepository;
  readonly vapid: VapidKeys;
  /** The VAPID `sub` claim (config.vapidSubject). */
  readonly subject: string;
  readonly log: Logger;
  readonly clock: Clock;
  /** The https agent pushes go through (a test's trusting a loopback push service's CA). */
  readonly agent?: Agent;
  /**
   * Tests only: endpoints on loopback and private addresses are pushed to. Otherwise they are
   * refused (a subscription comes from any signed-in user, a push service is always public).
   */
  readonly allowPrivateEndpoints?: boolean;
  readonly timeoutMs?: number;
}

type Attempt = 'sent' | 'gone' | { readonly error: unknown };

/**
 * Web push (RFC 8030, VAPID RFC 8292, aes128gcm RFC 8291) to every browser the user subscribed.
 * A subscription the push service calls gone (404, 410) is deleted. The send throws (and is
 * retried) when any browser's push failed otherwise; a retry pushes to the others again, which
 * their service worker shows as the same notification (`tag`). When every subscription was gone,
 * nothing can reach the user: a PermanentDeliveryError.
 */
export class PushChannel implements Channel {
  readonly name = 'push' as const;

  private readonly agent: Agent | undefined;

  constructor(private readonly options: PushChannelOptions) {
    this.agent =
      options.agent ??
      (options.allowPrivateEndpoints === true
        ? undefined
        : new Agent({ lookup: publicOnlyLookup }));
  }

  async send(to: Recipient, message: OutgoingMessage): Promise<SendOutcome> {
    if (to.userId === null) return { kind: 'skipped', reason: 'not a user of the account' };
    const rows = await this.options.subscriptions.forUser(to.userId);
    if (rows.length === 0) return { kind: 'skipped', reason: 'no push subscription' };
    const payload = pushPayload(message);
    const attempts = await Promise.all(rows.map((row) => this.pushTo(row, payload, message)));
    const failures = attempts.filter((a): a is { error: unknown } => typeof a === 'object');
    if (failures.length > 0) {
      const first = failures[0]?.error;
      throw new Error(
        `Web push failed for ${failures.length} of ${rows.length} subscriptions: ${describe(first)}`,
        { cause: first },
      );
    }
    if (attempts.every((a) => a === 'gone')) {
      throw new PermanentDeliveryError('Every push subscription of the user has expired');
    }
    return { kind: 'sent' };
  }

  private async pushTo(
    row: PushSubscriptionRow,
    payload: string,
    message: OutgoingMessage,
  ): Promise<Attempt> {
    const { subscriptions, log } = this.options;
    if (!usable(row)) {
      // Keys no browser makes: no push can ever be encrypted for it.
      await subscriptions.remove(row.id);
      log.warn('push subscription with unusable keys removed', { subscription: row.id });
      return 'gone';
    }
    if (this.options.allowPrivateEndpoints !== true && !(await endpointIsPublic(row.endpoint))) {
      await subscriptions.remove(row.id);
      log.warn('push subscription to a private address removed', {
        subscription: row.id,
        user: row.user_id,
      });
      return 'gone';
    }
    try {
      await webpush.sendNotification(
        { endpoint: row.endpoint, keys: { p256dh: row.public_key, auth: row.auth_token } },
        payload,
        {
          vapidDetails: {
            subject: this.options.subject,
            publicKey: this.options.vapid.publicKey,
            privateKey: this.options.vapid.privateKey,
          },
          TTL: PUSH_TTL_S,
          urgency: message.severity === 'critical' ? 'high' : 'normal',
          topic: topicOf(message.tag),
          contentEncoding: row.content_encoding === 'aesgcm' ? 'aesgcm' : 'aes128gcm',
          timeout: this.options.timeoutMs ?? PUSH_TIMEOUT_MS,
          ...(this.agent === undefined ? {} : { agent: this.agent }),
        },
      );
    } catch (err) {
      if (
        err instanceof webpush.WebPushError &&
        (err.statusCode === 404 || err.statusCode === 410)
      ) {
        await subscriptions.remove(row.id);
        log.info('push subscription gone, removed', {
          subscription: row.id,
          status: err.statusCode,
        });
        return 'gone';
      }
      return { error: err };
    }
    await subscriptions.markUsed(row.id, isoAt(this.options.clock.now()));
    return 'sent';
  }
}

function describe(err: unknown): string {
  if (err instanceof webpush.WebPushError) {
    return `${err.statusCode} from the push service${err.body === '' ? '' : `: ${err.body.slice(0, 200)}`}`;
  }
  return err instanceof Error ? err.message : String(err);
}
