import { Hono } from 'hono';
import type { z } from 'zod';
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
import { clientAddress, requestHeader, type AppEnv } from '../http/context';
import { parse, readBody, validBody } from '../http/validate';
import type { Services } from '../services';
import { OAuthError } from '../services/auth.service';
import { oauthErrorAnswer } from './oauth';

const invalidRequest = (message: string) => new OAuthError(400, 'invalid_request', message);

/**
 * The token request's fields with the client's credentials from HTTP Basic, which RFC 6749 §2.3.1
 * has servers accept (form-encoded id and secret); a request may not use both ways at once.
 */
function withBasicCredentials(header: string | undefined, raw: unknown): Record<string, unknown> {
  const body: Record<string, unknown> =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? { ...raw } : {};
  const basic = /^Basic ([A-Za-z0-9+/=]{1,1000})$/i.exec(header ?? '');
  if (basic === null) return body;
  const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
  let id: string;
  let secret: string;
  try {
    id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  } catch {
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
  }
  if (body.client_secret !== undefined) {
    throw invalidRequest('The client authenticated in more than one way.');
  }
  if (body.client_id !== undefined && body.client_id !== id) {
    throw invalidRequest('The client id of the body is not the one authenticated.');
  }
  return { ...body, client_id: id, client_secret: secret };
}

/** A grant's request checked; a missing or malformed field is OAuth's invalid_request (400). */
function grantRequest<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  throw invalidRequest(
    field === '' ? 'The request is malformed.' : `The ${field} parameter is missing or invalid.`,
  );
}

/** Sign-in, registration, sign-out and password reset (spec 000 §7). */
export function authRoutes(services: Services) {
  const app = new Hono<AppEnv>();

  app.post('/oauth/token', async (c) => {
    const raw = await readBody(c, { allowForm: true });
    try {
      const body = withBasicCredentials(requestHeader(c, 'authorization'), raw);
      switch (body.grant_type) {
        case 'authorization_code':
          return c.json(
            await services.oauth.authorizationCodeGrant(
              grantRequest(authorizationCodeGrantSchema, body),
            ),
          );
        case 'refresh_token':
          return c.json(
            await services.oauth.refreshTokenGrant(grantRequest(refreshTokenGrantSchema, body)),
          );
        case 'client_credentials':
          return c.json(
            await services.oauth.clientCredentialsGrant(
              grantRequest(clientCredentialsGrantSchema, body),
            ),
          );
        case 'password': {
          const req = parse(tokenRequestSchema, raw);
          const address = clientAddress(c);
          try {
            return c.json(await services.auth.passwordGrant(req, address));
          } catch (err) {
            // Security insights count failed sign-ins and rate-limit hits (insights/).
            if (err instanceof OAuthError)
              services.securityEvents.signInRefused(req.username, address, err.code);
            throw err;
          }
        }
        default:
          // No grant type, or not a text: the app's sign-in form's fields, answered with their
          // messages as a 422 like other forms (tokenRequestSchema says what is wrong).
          if (typeof body.grant_type !== 'string') parse(tokenRequestSchema, raw);
          throw new OAuthError(
            400,
            'unsupported_grant_type',
            'The authorization grant type is not supported by the authorization server.',
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
    return c.json(await services.passwords.reset(req, clientAddress(c)));
  });

  return app;
}
