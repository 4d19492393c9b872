import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { appPaths } from '@plant/shared-schema';

/**
 * A third-party application on a loopback port (RFC 8252 §7.3), as a machine builder's tool would
 * be: `/start` makes a PKCE verifier with its S256 challenge and a state, and sends the browser to
 * the platform's consent screen; `/callback` checks the state and trades the code for tokens at
 * the token endpoint from here (server side), keeping what it got. It knows only the platform's
 * public addresses and the OAuth wire format: nothing of the app's code.
 */
export interface CallbackResult {
  /** What the callback's query said: `code` or `error` (access_denied, …). */
  readonly error?: string;
  /** The token endpoint's answer (status and JSON) when a code came. */
  readonly exchange?: { readonly status: number; readonly body: Record<string, unknown> };
}

export interface LoopbackApp {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly redirectUri: string;
  /** The client the platform made for it (public: PKCE, no secret), and the scopes it asks. */
  use(client: { readonly id: string; readonly scope: string }): void;
  /** Every callback so far, in order. */
  readonly results: readonly CallbackResult[];
  /** POSTs a form to the platform's token endpoint (refresh, reuse), as the app would. */
  token(form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/**
 * `platform`: the address the browser reaches the app at (the consent screen); `api`: where the
 * token endpoint is reached from this process.
 */
export async function startLoopbackApp(platform: string, api: string): Promise<LoopbackApp> {
  const pending = new Map<string, string>();
  const results: CallbackResult[] = [];
  let client: { id: string; scope: string } | undefined;
  let url = '';

  const token = async (form: Record<string, string>) => {
    const response = await fetch(`${api}/api/v1/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: response.status, body };
  };

  const answer = (res: http.ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Loopback app</title><p id="outcome">${text}</p>`);
  };

  const server = http.createServer((req, res) => {
    const at = new URL(req.url ?? '/', url);
    if (at.pathname === '/start' && client !== undefined) {
      const verifier = base64url(randomBytes(32));
      const state = base64url(randomBytes(16));
      pending.set(state, verifier);
      const challenge = base64url(createHash('sha256').update(verifier).digest());
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: client.id,
        redirect_uri: `${url}/callback`,
        scope: client.scope,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      res.writeHead(302, { Location: `${platform}${appPaths.oauthConsent()}?${query.toString()}` });
      res.end();
      return;
    }
    if (at.pathname === '/callback' && client !== undefined) {
      const state = at.searchParams.get('state') ?? '';
      const verifier = pending.get(state);
      pending.delete(state);
      if (verifier === undefined) {
        results.push({ error: 'state_mismatch' });
        answer(res, 400, 'state mismatch');
        return;
      }
      const error = at.searchParams.get('error');
      if (error !== null) {
        results.push({ error });
        answer(res, 200, `denied: ${error}`);
        return;
      }
      const { id } = client;
      void token({
        grant_type: 'authorization_code',
        client_id: id,
        code: at.searchParams.get('code') ?? '',
        redirect_uri: `${url}/callback`,
        code_verifier: verifier,
      }).then(
        (exchange) => {
          results.push({ exchange });
          answer(res, 200, exchange.status === 200 ? 'connected' : 'exchange failed');
        },
        (err: unknown) => {
          results.push({ error: String(err) });
          answer(res, 500, 'exchange failed');
        },
      );
      return;
    }
    answer(res, 404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    redirectUri: `${url}/callback`,
    use(next) {
      client = { ...next };
    },
    results,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
