import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One post a receiver got: its path, headers and the body's bytes as text. */
export interface ReceivedPost {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The status it was answered with. */
  readonly status: number;
}

/**
 * A webhook receiver on a loopback port for tests (test-only): records every post and answers
 * 200, or, for a path given `answers`, those statuses first, in order (then 200).
 */
export async function startWebhookReceiver() {
  const received: ReceivedPost[] = [];
  const scripted = new Map<string, number[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const status = scripted.get(path)?.shift() ?? 200;
      received.push({
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status,
      });
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    /** The posts to one path. */
    to: (path: string) => received.filter((r) => r.path === path),
    /** Answers the next posts to `path` with these statuses. */
    answer: (path: string, statuses: readonly number[]) => scripted.set(path, [...statuses]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
