import { Hono } from 'hono';
import { pushSubscriptionSchema, pushUnsubscribeSchema, type PushKey } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody } from '../http/validate';
import type { Services } from '../services';

/** Web push (spec 000 §7, issue 17 item 5): a browser subscribes its user, or stops. */
export function subscriptionRoutes(services: Services, push: PushKey) {
  const app = new Hono<AppEnv>();

  // The key the browser's pushManager.subscribe needs (applicationServerKey), and how long the
  // browser waits for its push service.
  app.get('/push/key', requireAuth(services), (c) => c.json(push satisfies PushKey));

  // One row per endpoint: a browser where another user subscribed before now reaches this one.
  app.post('/subscriptions', requireAuth(services), async (c) => {
    const sub = await validBody(c, pushSubscriptionSchema);
    const auth = c.get('auth');
    const id = await services.pushSubscriptions.subscribe(auth.userId, sub, auth.tokenId);
    return c.json({ success: true, data: { id } }, 201);
  });

  // Only the caller's own subscription goes (an endpoint taken over meanwhile stays its new user's).
  app.delete('/subscriptions', requireAuth(services), async (c) => {
    const { endpoint } = await validBody(c, pushUnsubscribeSchema);
    await services.pushSubscriptions.unsubscribe(c.get('auth').userId, endpoint);
    return c.json({ success: true });
  });

  return app;
}
