import { Hono } from 'hono';
import {
  memberParamsSchema,
  memberRoleParamsSchema,
  notificationSettingsSchema,
  userProfileChangeSchema,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams } from '../http/validate';
import type { Services } from '../services';

/** The active account's members (spec 000 §2 /app/users, spec 001 §6). */
export function memberRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);
  const members = services.members;

  app.get('/account/users', auth, async (c) =>
    c.json({ data: await members.list(c.get('session')) }),
  );

  app.delete('/account/users/:id', auth, async (c) => {
    const { id } = validParams(c, memberParamsSchema);
    await members.remove(c.get('session'), id);
    return c.body(null, 204);
  });

  app.put('/account/users/:id/roles/:roleId', auth, async (c) => {
    const { id, roleId } = validParams(c, memberRoleParamsSchema);
    return c.json({ data: await members.giveRole(c.get('session'), id, roleId) });
  });

  app.delete('/account/users/:id/roles/:roleId', auth, async (c) => {
    const { id, roleId } = validParams(c, memberRoleParamsSchema);
    return c.json({ data: await members.takeRole(c.get('session'), id, roleId) });
  });

  app.post('/account/users/:id/password-reset', auth, async (c) => {
    const { id } = validParams(c, memberParamsSchema);
    return c.json({ success: true, message: await members.sendResetLink(c.get('session'), id) });
  });

  // A user's details and notification settings: oneself, or a member with user::view / edit.
  app.get('/users/:id/profile', auth, async (c) => {
    const { id } = validParams(c, memberParamsSchema);
    return c.json({ data: await services.profiles.profile(c.get('session'), id) });
  });

  app.put('/users/:id/profile', auth, async (c) => {
    const { id } = validParams(c, memberParamsSchema);
    const body = await validBody(c, userProfileChangeSchema);
    return c.json({ data: await services.profiles.setProfile(c.get('session'), id, body) });
  });

  app.get('/users/:id/notifications', auth, async (c) => {
    const { id } = validParams(c, memberParamsSchema);
    return c.json({ data: await services.profiles.notifications(c.get('session'), id) });
  });

  app.put('/users/:id/notifications', auth, async (c) => {
    const { id } = validParams(c, memberParamsSchema);
    const body = await validBody(c, notificationSettingsSchema);
    return c.json({ data: await services.profiles.setNotifications(c.get('session'), id, body) });
  });

  return app;
}
