import type { Context, MiddlewareHandler } from 'hono';
import { DISABLE_INTERNAL_FEATURES_HEADER } from '@plant/shared-schema';
import type { Services } from '../services';
import { DomainError } from '../services/domain-error';
import type { Session } from '../services/user.service';
import type { AppEnv } from './context';

export function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header);
  return match?.[1];
}

/** Refuses requests without a live bearer token (401) and records who is calling. */
export function requireAuth(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c);
    const auth = token === undefined ? undefined : await services.auth.authenticate(token);
    if (auth === undefined) throw new DomainError('unauthenticated', 'Unauthenticated.');
    c.set('auth', auth);
    await next();
  };
}

/** The client turns internal features off with this header (stored setting disableInternalFeatures). */
export function internalFeaturesDisabled(c: Context): boolean {
  const value = c.req.header(DISABLE_INTERNAL_FEATURES_HEADER)?.toLowerCase();
  return value === '1' || value === 'true';
}

export function loadSession(c: Context<AppEnv>, services: Services): Promise<Session> {
  return services.users.session(c.get('auth').userId, internalFeaturesDisabled(c));
}
