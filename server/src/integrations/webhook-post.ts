import http from 'node:http';
import https from 'node:https';
import { INTEGRATION_TEXTS } from '@plant/shared-schema';
import { endpointIsPublic, publicOnlyLookup } from '../notify/channels/public-address';

/** How long one try may take, connection and answer together. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** How a try went: the receiver's status, or why none came (`final`: trying again is futile). */
export type PostOutcome =
  { readonly status: number } | { readonly error: string; readonly final: boolean };

/**
 * Posts webhook bodies (integrations/webhook-sender.ts). Addresses an admin of any account types
 * in, so, unless `allowPrivate` (WEBHOOK_ALLOW_PRIVATE: tests, a receiver in the plant network),
 * a host on a private, loopback or other special address is refused as push endpoints are
 * (notify/channels/public-address.ts): when the name is looked at, and again when the socket
 * connects (a name may resolve elsewhere the second time). No redirect is followed (it could
 * lead anywhere), no connection is kept, and the answer's body is read and thrown away.
 */
export class WebhookPoster {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(
    private readonly allowPrivate: boolean,
    private readonly timeoutMs = WEBHOOK_TIMEOUT_MS,
  ) {
    const lookup = allowPrivate ? {} : { lookup: publicOnlyLookup };
    this.httpAgent = new http.Agent({ keepAlive: false, ...lookup });
    this.httpsAgent = new https.Agent({ keepAlive: false, ...lookup });
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<PostOutcome> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { error: INTEGRATION_TEXTS.url, final: true };
    }
    if (!this.allowPrivate && !(await endpointIsPublic(url)))
      return { error: INTEGRATION_TEXTS.notPublic, final: true };
    const secure = target.protocol === 'https:';
    return new Promise<PostOutcome>((resolve) => {
      const payload = Buffer.from(body, 'utf8');
      const req = (secure ? https : http).request(target, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'Content-Length': String(payload.length) },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      req.on('response', (res) => {
        res.resume();
        res.on('error', () => undefined);
        resolve({ status: res.statusCode ?? 0 });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EPRIVATEADDRESS')
          resolve({ error: INTEGRATION_TEXTS.notPublic, final: true });
        else if (err.name === 'AbortError' || err.name === 'TimeoutError')
          resolve({ error: INTEGRATION_TEXTS.timeout, final: false });
        else resolve({ error: (err.code ?? err.message).slice(0, 200), final: false });
      });
      req.end(payload);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
