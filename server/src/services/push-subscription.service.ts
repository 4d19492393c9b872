import { uuidv7, type PushSubscription } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { PushSubscriptionRepository } from '../repositories/push-subscription.repository';

/** Browsers' web-push subscriptions (spec 000 §7 POST subscriptions), the push channel's list. */
export class PushSubscriptionService {
  private readonly subscriptions: PushSubscriptionRepository;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.subscriptions = new PushSubscriptionRepository(db);
  }

  /**
   * Stores the browser's subscription for the user (taking the endpoint over from another), with
   * the sign-in it came with: signing out ends it.
   */
  subscribe(userId: string, sub: PushSubscription, tokenId: string): Promise<string> {
    const now = this.clock.now();
    const at = isoAt(now);
    return this.subscriptions.upsert({
      id: uuidv7(now),
      user_id: userId,
      endpoint: sub.endpoint,
      public_key: sub.publicKey,
      auth_token: sub.authToken,
      content_encoding: sub.contentEncoding,
      device_type: sub.deviceType ?? null,
      device_brand: sub.deviceBrand ?? null,
      token_id: tokenId,
      created_at: at,
      updated_at: at,
    });
  }

  unsubscribe(userId: string, endpoint: string): Promise<void> {
    return this.subscriptions.removeOwn(userId, endpoint);
  }
}
