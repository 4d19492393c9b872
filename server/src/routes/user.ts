import { Hono } from 'hono';
import { z } from 'zod';
import { idField } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validParams, validQuery } from '../http/validate';
import type { Services } from '../services';
import { mayWorkIn } from '../services/account-access';
import { notFound } from '../services/domain-error';

const userIdParams = z.object({ id: idField });
const setActiveParams = z.object({ id: idField, accountid: idField });
const styleQuery = z.object({ account: idField.optional() });
const browserQuery = z.object({
  browser_id: z
    .string({ error: 'The browser id is required.' })
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'The browser id is required.'),
});

/**
 * The signed-in user, other users of its account, its active account and that account's style, the
 * accounts it may see and switch to.
 */
export function userRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.get('/user', auth, (c) =>
    c.body(c.get('session').viewJson, 200, { 'Content-Type': 'application/json' }),
  );

  app.get('/user/account', auth, async (c) => {
    const session = c.get('session');
    return c.json({
      data:
        session.activeAccount === null
          ? null
          : await services.accounts.view(session.activeAccount, session.memberOf),
    });
  });

  // The account switcher's tree: the user's own accounts, and below those with account::view.
  app.get('/user/accounts', auth, async (c) =>
    c.json({ data: await services.accounts.tree(c.get('session')) }),
  );

  app.post('/user/:id/setActiveAccount/:accountid', auth, async (c) => {
    const { id, accountid } = validParams(c, setActiveParams);
    const session = c.get('session');
    const data = await services.users.setActiveAccount(session, id, accountid);
    // Broker credentials name the account they were issued for, and the active account is per
    // user: every browser of the user (on any token) is now in the wrong account and asks anew.
    await services.browserCredentials.revokeForUser(session.user.id);
    return c.json({ success: true, data });
  });

  app.get('/user/browser/mqtt', auth, async (c) => {
    const { browser_id } = validQuery(c, browserQuery);
    const data = await services.browserCredentials.issue(
      c.get('session'),
      c.get('auth'),
      browser_id,
    );
    return c.json({ data });
  });

  app.get('/users/:id', auth, async (c) => {
    const { id } = validParams(c, userIdParams);
    const session = c.get('session');
    return c.json({ data: await services.users.visibleUser(session, id) });
  });

  app.get('/style', auth, async (c) => {
    const { account } = validQuery(c, styleQuery);
    const session = c.get('session');
    const accountId = account ?? session.activeAccount?.id;
    // A scoped token works in its role's account only: another account's design is not its.
    if (accountId === undefined || !mayWorkIn(session, accountId)) throw notFound('Account');
    const css = await services.accounts.stylesheet(session.user.id, accountId);
    c.header('Cache-Control', 'private, no-cache');
    return c.body(css, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  return app;
}
