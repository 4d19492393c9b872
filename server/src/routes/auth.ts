import { Hono } from 'hono';
import {
  authorizationCodeGrantSchema,
  clientCredentialsGrantSchema,
  refreshTokenGrantSchema,
  passwordForgotRequestSchema,
  passwordResetRequestSchema,
  registerRequestSchema,
  tokenRequestSchema,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import { clientAddress, type AppEnv } from '../http/context';
import { parse, readBody, validBody } from '../http/validate';
import type { Services } from '../services';
import { OAuthError } from '../services/auth.service';
import { oauthErrorAnswer } from './oauth';

/** Sign-in, registration, sign-out and password reset (spec 000 §7). */
export function authRoutes(services: Services) {
  const app = new Hono<AppEnv>();

  app.post('/oauth/token', async (c) => {
    const raw = await readBody(c, { allowForm: true });
    const grant =
      typeof raw === 'object' && raw !== null
        ? (raw as { grant_type?: unknown }).grant_type
        : undefined;
    try {
      switch (grant) {
        case 'authorization_code':
          return c.json(
            await services.oauth.authorizationCodeGrant(parse(authorizationCodeGrantSchema, raw)),
          );
        case 'refresh_token':
          return c.json(
            await services.oauth.refreshTokenGrant(parse(refreshTokenGrantSchema, raw)),
          );
        case 'client_credentials':
          return c.json(
            await services.oauth.clientCredentialsGrant(parse(clientCredentialsGrantSchema, raw)),
          );
        default:
          return c.json(
            await services.auth.passwordGrant(parse(tokenRequestSchema, raw), clientAddress(c)),
          );
      }
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      return oauthErrorAnswer(c, err);
    }
  });

  app.post('/register', async (c) => {
    const req = await validBody(c, registerRequestSchema);
    const { userId, token } = await services.auth.register(
      req,
      clientAddress(c),
      services.firstPartyClientId,
    );
    const session = await services.users.session(userId, false);
    return c.json({ success: true, data: { ...token, user: session.view } }, 201);
  });

  app.post('/logout', requireAuth(services), async (c) => {
    await services.auth.logout(c.get('auth').tokenId);
    await services.browserCredentials.revokeForToken(c.get('auth').tokenId);
    return c.json({ success: true, message: 'You have been signed out.' });
  });

  app.post('/password/forgot', async (c) => {
    const req = await validBody(c, passwordForgotRequestSchema);
    return c.json({
      success: true,
      message: await services.passwords.forgot(req, clientAddress(c)),
    });
  });

  app.post('/password/reset', async (c) => {
    const req = await validBody(c, passwordResetRequestSchema);
    const message = await services.passwords.reset(req, clientAddress(c));
    return c.json({ success: true, message });
  });

  return app;
}
