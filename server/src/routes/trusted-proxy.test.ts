import { afterEach, describe, expect, it } from 'vitest';
import { apiPaths, uuidv7 } from '@plant/shared-schema';
import { DEFAULT_AUTH_LIMITS } from '../services/auth.service';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Behind a load balancer (README "Running at scale") every request comes from the balancer's
 * address: the sign-in limits per address must count the client it forwards for, and only when
 * the balancer is trusted (TRUSTED_PROXIES), or anyone could pick their own address.
 */
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function failures(s: TestServer, email: string, forwardedFor: string, n: number) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await s.call('POST', apiPaths.token(), {
      json: {
        grant_type: 'password',
        client_id: s.clientId,
        username: email,
        password: 'wrong-password-1',
      },
      headers: { 'X-Forwarded-For': forwardedFor },
    });
    statuses.push(res.status);
  }
  return statuses;
}

describe('client addresses behind a proxy', () => {
  it('a trusted proxy’s X-Forwarded-For names the client the limits count', async () => {
    const s = await startTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
    servers.push(s);
    const { limit } = DEFAULT_AUTH_LIMITS.perEmailAndAddress;
    const email = `guess-${uuidv7()}@demo.local`;
    // A client's own header further left is not believed: the proxy appended the real address.
    const fromX = await failures(s, email, '198.51.100.9, 203.0.113.7', limit + 1);
    expect(fromX.slice(0, limit).every((x) => x === 401)).toBe(true);
    expect(fromX[limit]).toBe(429);
    // Another client behind the same proxy is not locked out by the first one's failures.
    expect(await failures(s, email, '203.0.113.8', 1)).toEqual([401]);
    expect(await failures(s, email, '198.51.100.9, 203.0.113.8', 1)).toEqual([401]);
  });

  it('without TRUSTED_PROXIES the header is ignored: the peer is the client', async () => {
    const s = await startTestServer();
    servers.push(s);
    const { limit } = DEFAULT_AUTH_LIMITS.perEmailAndAddress;
    const email = `guess-${uuidv7()}@demo.local`;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      statuses.push(...(await failures(s, email, `203.0.113.${i + 1}`, 1)));
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
