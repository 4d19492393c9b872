import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  authorizeDecisionSchema,
  authorizeQuerySchema,
  clientCreateSchema,
  clientUpdateSchema,
  personalTokenCreateSchema,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams, validQuery } from '../http/validate';
import type { Services } from '../services';
import { OAuthError } from '../services/auth.service';

const idParams = z.object({ id: z.string().min(1).max(64) });

/** An OAuth failure in Passport's shape: the error code, its text twice, and an empty hint. */
export function oauthErrorAnswer(c: Context<AppEnv>, err: OAuthError) {
  if (err.retryAfterS !== undefined) c.header('Retry-After', String(err.retryAfterS));
  return c.json(
    {
      ...err.details,
      error: err.code,
      error_description: err.message,
      message: err.message,
      hint: '',
    },
    err.status,
  );
}

/**
 * The developer area's calls (spec 000 §7, Laravel Passport's JSON API): personal access tokens,
 * scopes, clients, authorized applications, and the consent screen's two calls. Only the app's
 * own sign-in reaches them (the API catalog marks them first-party): a token cannot make tokens.
 */
export function oauthRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);
  const oauth = services.oauth;

  app.get('/oauth/scopes', auth, (c) => c.json(oauth.scopes()));

  app.get('/oauth/personal-access-tokens', auth, async (c) =>
    c.json(await oauth.personalTokens(c.get('session'))),
  );
  app.post('/oauth/personal-access-tokens', auth, async (c) => {
    const req = await validBody(c, personalTokenCreateSchema);
    return c.json(await oauth.createPersonalToken(c.get('session'), req));
  });
  app.delete('/oauth/personal-access-tokens/:id', auth, async (c) => {
    const { id } = validParams(c, idParams);
    await oauth.revokePersonalToken(c.get('session'), id);
    return c.body(null, 204);
  });

  app.get('/oauth/clients', auth, async (c) => c.json(await oauth.clients(c.get('session'))));
  app.post('/oauth/clients', auth, async (c) => {
    const req = await validBody(c, clientCreateSchema);
    return c.json(await oauth.createClient(c.get('session'), req), 201);
  });
  app.put('/oauth/clients/:id', auth, async (c) => {
    const { id } = validParams(c, idParams);
    const req = await validBody(c, clientUpdateSchema);
    return c.json(await oauth.updateClient(c.get('session'), id, req));
  });
  app.post('/oauth/clients/:id/secret', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return c.json(await oauth.newClientSecret(c.get('session'), id));
  });
  app.delete('/oauth/clients/:id', auth, async (c) => {
    const { id } = validParams(c, idParams);
    await oauth.deleteClient(c.get('session'), id);
    return c.body(null, 204);
  });

  app.get('/oauth/tokens', auth, async (c) =>
    c.json(await oauth.applicationTokens(c.get('session'))),
  );
  app.delete('/oauth/tokens/:id', auth, async (c) => {
    const { id } = validParams(c, idParams);
    await oauth.revokeApplicationToken(c.get('session'), id);
    return c.body(null, 204);
  });

  app.get('/oauth/authorize', auth, async (c) => {
    const query = validQuery(c, authorizeQuerySchema);
    try {
      return c.json(await oauth.authorizePreview(c.get('session'), query));
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorAnswer(c, err);
      throw err;
    }
  });
  app.post('/oauth/authorize', auth, async (c) => {
    const decision = await validBody(c, authorizeDecisionSchema);
    try {
      return c.json({ redirect: await oauth.authorizeDecide(c.get('session'), decision) });
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorAnswer(c, err);
      throw err;
    }
  });

  return app;
}

/**
 * Passport's consent address at the origin (/oauth/authorize): existing clients send users there;
 * the consent screen is the app's page, so the query goes on to it.
 */
export function oauthOriginRoutes(consentPath: string) {
  const app = new Hono<AppEnv>();
  app.get('/oauth/authorize', (c) => {
    const query = new URL(c.req.url).search;
    return c.redirect(`${consentPath}${query}`, 302);
  });
  return app;
}
