import { Hono } from 'hono';
import {
  invitationInfoRequestSchema,
  invitationParamsSchema,
  invitationRequestSchema,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { readJson, validBody, validParams } from '../http/validate';
import type { Services } from '../services';

/**
 * Invitations (spec 001 §6): an admin invites by e-mail; the person answers the mailed link
 * without being signed in (the link's token proves the invitation) and is signed in afterwards,
 * like after registering. The sent ones are listed with their state, sent again (a new link) or
 * revoked (issue 30 item 10).
 */
export function invitationRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const invitations = services.invitations;

  app.post('/account/invitations', requireAuth(services), async (c) => {
    const req = await validBody(c, invitationRequestSchema);
    return c.json({ data: await invitations.invite(c.get('session'), req) }, 201);
  });

  app.get('/account/invitations', requireAuth(services), async (c) =>
    c.json({ data: await invitations.list(c.get('session')) }),
  );

  app.post('/account/invitations/:id/resend', requireAuth(services), async (c) => {
    const { id } = validParams(c, invitationParamsSchema);
    return c.json({ data: await invitations.resend(c.get('session'), id) });
  });

  app.post('/account/invitations/:id/revoke', requireAuth(services), async (c) => {
    const { id } = validParams(c, invitationParamsSchema);
    return c.json({ data: await invitations.revoke(c.get('session'), id) });
  });

  app.post('/invitations/info', async (c) => {
    const { token } = await validBody(c, invitationInfoRequestSchema);
    return c.json({ data: await invitations.info(token) });
  });

  // Which schema applies (a new person's or an existing user's) depends on the invitation's
  // address: the service validates the body once it knows.
  app.post('/invitations/accept', async (c) => {
    const body = await readJson(c);
    const { userId, token } = await invitations.accept(body, services.firstPartyClientId);
    // Joined, but a second factor is due: the sign-in asks for it and issues the token.
    if (token === null) return c.json({ success: true, data: { second_factor: true } });
    const session = await services.users.session(userId, false);
    return c.json({ success: true, data: { ...token, user: session.view } });
  });

  return app;
}
