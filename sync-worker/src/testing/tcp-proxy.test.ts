import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** What the target server saw of one request. */
interface Seen {
  readonly url: string;
  readonly remotePort: number;
  /** Body bytes read, and whether the whole request arrived (false: aborted). */
  received: number;
  complete: boolean;
  readonly closed: Promise<void>;
}

let target: http.Server;
let wss: WebSocketServer;
let proxy: TcpProxy;
let handler: Handler;
let seen: Seen[];

/** The default route: answers with the body it got, once it got all of it. */
const echo: Handler = (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => res.end(Buffer.concat(chunks)));
};

beforeEach(async () => {
  seen = [];
  handler = echo;
  target = http.createServer((req, res) => {
    const entry: Seen = {
      url: req.url ?? '',
      remotePort: req.socket.remotePort ?? 0,
      received: 0,
      complete: false,
      closed: new Promise((resolve) => req.once('close', resolve)),
    };
    seen.push(entry);
    req.on('data', (chunk: Buffer) => (entry.received += chunk.length));
    req.on('error', () => undefined);
    req.once('close', () => (entry.complete = req.complete));
    handler(req, res);
  });
  wss = new WebSocketServer({ server: target });
  wss.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  proxy = await startTcpProxy({ host: '127.0.0.1', port: (target.address() as AddressInfo).port });
});

afterEach(async () => {
  await proxy.close();
  for (const client of wss.clients) client.terminate();
  wss.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

/** A request through node:http on `agent`, answering status and body. */
async function request(
  agent: http.Agent,
  path: string,
  body?: Buffer,
): Promise<{ status: number; body: Buffer }> {
  const req = http.request(`${proxy.url()}${path}`, { agent, method: body ? 'POST' : 'GET' });
  req.end(body);
  const [res] = (await once(req, 'response')) as [http.IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { status: res.statusCode ?? 0, body: Buffer.concat(chunks) };
}

/** What a fetch through the proxy threw, as its name and its cause's code. */
async function fetchFailure(
  path: string,
  init: RequestInit = {},
): Promise<{ name: string; cause?: string }> {
  try {
    await (await fetch(`${proxy.url()}${path}`, init)).arrayBuffer();
  } catch (error) {
    const { name, cause } = error as Error & { cause?: { code?: string } };
    return cause?.code === undefined ? { name } : { name, cause: cause.code };
  }
  throw new Error(`${path} did not fail`);
}

async function openWebSocket(): Promise<WebSocket> {
  const socket = new WebSocket(`${proxy.url('ws')}/mqtt`);
  await once(socket, 'open');
  return socket;
}

async function nextMessage(socket: WebSocket): Promise<Buffer> {
  const [data] = (await once(socket, 'message')) as [RawData];
  return Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
}

describe('without faults', () => {
  it('passes a GET and a 1 MB POST through intact, on one keep-alive connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = randomBytes(1024 * 1024);

    const get = await request(agent, '/hello');
    const post = await request(agent, '/echo', body);
    agent.destroy();

    expect(get).toEqual({ status: 200, body: Buffer.alloc(0) });
    expect(post.status).toBe(200);
    expect(post.body.equals(body)).toBe(true);
    expect(seen.map((s) => s.url)).toEqual(['/hello', '/echo']);
    expect(seen[1]?.remotePort).toBe(seen[0]?.remotePort);
    expect(proxy.stats).toMatchObject({ connections: 1, resets: 0 });
    expect(proxy.stats.bytesUp).toBeGreaterThan(body.length);
    expect(proxy.stats.bytesDown).toBeGreaterThan(body.length);
  });

  it('passes a WebSocket upgrade and its messages and close frame through', async () => {
    const socket = await openWebSocket();
    const binary = randomBytes(256 * 1024);

    socket.send('hello');
    expect((await nextMessage(socket)).toString()).toBe('hello');
    socket.send(binary);
    expect((await nextMessage(socket)).equals(binary)).toBe(true);

    const [server] = [...wss.clients];
    const serverClosed = once(server!, 'close');
    socket.close(4000, 'bye');
    const [code, reason] = (await serverClosed) as [number, Buffer];
    expect({ code, reason: reason.toString() }).toEqual({ code: 4000, reason: 'bye' });
  });

  it('closes its side when the server closes the connection', async () => {
    handler = (req, res) => {
      res.setHeader('connection', 'close');
      echo(req, res);
    };
    const agent = new http.Agent({ keepAlive: true });
    expect((await request(agent, '/bye')).status).toBe(200);
    agent.destroy();
    await vi.waitFor(() => expect(proxy.stats).toMatchObject({ connections: 1, open: 0 }));
  });
});

describe('latency', () => {
  it('delays the request and the answer by at least the latency each', async () => {
    proxy.setLatency(150);
    const started = performance.now();
    const res = await fetch(`${proxy.url()}/slow`, { method: 'POST', body: 'ping' });
    expect(await res.text()).toBe('ping');
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('keeps the order of chunks when the latency drops', async () => {
    handler = (_req, res) => {
      res.write('first-');
      void sleep(50).then(() => {
        // 'first-' is still held for ~150 ms; 'second' must not overtake it.
        proxy.setLatency(0);
        res.end('second');
      });
    };
    proxy.setLatency(200);
    expect(await (await fetch(`${proxy.url()}/stream`)).text()).toBe('first-second');
  });
});

describe('jitter', () => {
  it('lets a request on one connection overtake an earlier one on another', async () => {
    // The first chunk drawn waits almost the whole second; every later one none.
    let draws = 0;
    proxy.setJitter(1_000, () => (draws++ === 0 ? 0.99 : 0));
    const early = net.connect(proxy.port, '127.0.0.1');
    early.write('GET /early HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    // Its request is held in the proxy (drawn) before the second one leaves.
    await vi.waitFor(() => expect(draws).toBe(1));
    const late = await fetch(`${proxy.url()}/late`);
    expect(late.status).toBe(200);
    await vi.waitFor(() => expect(seen.map((s) => s.url)).toEqual(['/late', '/early']));
    early.destroy();
  });

  it('keeps the order of the bytes within one connection', async () => {
    proxy.setJitter(30);
    const socket = await openWebSocket();
    const got: string[] = [];
    const all = new Promise<void>((resolve) => {
      socket.on('message', (data: RawData) => {
        got.push(Buffer.isBuffer(data) ? data.toString() : '');
        if (got.length === 100) resolve();
      });
    });
    const sent = Array.from({ length: 100 }, (_, i) => `message ${i}`);
    for (const text of sent) socket.send(text);
    await all;
    expect(got).toEqual(sent);
    socket.close();
  });

  it('adds nothing once turned off', async () => {
    proxy.setJitter(10_000, () => 1);
    proxy.setJitter(0);
    const res = await fetch(`${proxy.url()}/quick`, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(200);
  });
});

describe('faults', () => {
  it('resetAll fails an in-flight request with ECONNRESET, and the server sees it go', async () => {
    handler = (req, res) => {
      if (req.url !== '/hold') echo(req, res); // /hold never answers
    };
    const failure = fetchFailure('/hold');
    await vi.waitFor(() => expect(seen).toHaveLength(1));

    proxy.resetAll();

    expect(await failure).toEqual({ name: 'TypeError', cause: 'ECONNRESET' });
    await seen[0]?.closed;
    expect(proxy.stats.resets).toBe(1);
    expect((await fetch(`${proxy.url()}/again`)).status).toBe(200);
  });

  it('resetAfterUpstreamBytes cuts a POST mid-body, once', async () => {
    const cut = 64 * 1024;
    proxy.resetAfterUpstreamBytes(cut);

    const failure = await fetchFailure('/batch', {
      method: 'POST',
      body: randomBytes(4 * 1024 * 1024),
    });

    expect(failure.name).toBe('TypeError');
    expect(['ECONNRESET', 'EPIPE']).toContain(failure.cause);
    await seen[0]?.closed;
    expect(seen[0]?.complete).toBe(false);
    expect(seen[0]?.received).toBeGreaterThan(0);
    expect(seen[0]?.received).toBeLessThanOrEqual(cut);
    expect(proxy.stats.resets).toBe(1);

    const body = randomBytes(1024 * 1024);
    const res = await fetch(`${proxy.url()}/batch`, { method: 'POST', body });
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
    expect(seen[1]?.complete).toBe(true);
  });

  it('blackhole makes a request hang until its timeout; lifted, requests work again', async () => {
    proxy.blackhole(true);
    const failure = await fetchFailure('/lost', { signal: AbortSignal.timeout(300) });
    expect(failure).toEqual({ name: 'TimeoutError' });
    expect(seen).toHaveLength(0);

    proxy.blackhole(false);
    const res = await fetch(`${proxy.url()}/back`, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(200);
  });

  it('blackhole holds bytes on an open connection and delivers them when lifted', async () => {
    const socket = await openWebSocket();
    proxy.blackhole(true);
    socket.send('held');
    const message = nextMessage(socket);
    const arrived = await Promise.race([message.then(() => true), sleep(200, false)]);
    expect(arrived).toBe(false);

    proxy.blackhole(false);
    expect((await message).toString()).toBe('held');
    socket.close();
  });

  it('silenceOpen: an open connection hears nothing more, for good; a new one works', async () => {
    const socket = await openWebSocket();
    proxy.silenceOpen();
    socket.send('lost');
    const message = nextMessage(socket);
    expect(await Promise.race([message.then(() => true), sleep(300, false)])).toBe(false);
    // Not a partition that heals: lifting a blackhole does not deliver it either.
    proxy.blackhole(false);
    expect(await Promise.race([message.then(() => true), sleep(300, false)])).toBe(false);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    const res = await fetch(`${proxy.url()}/fresh`, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(200);
    socket.terminate();
  });

  it('refuse fails new connections while on, and open ones go on', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await request(agent, '/before')).status).toBe(200);

    proxy.refuse(true);
    expect(await fetchFailure('/refused')).toEqual({ name: 'TypeError', cause: 'ECONNRESET' });
    expect((await request(agent, '/kept')).status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(['/before', '/kept']);
    expect(proxy.stats.refused).toBeGreaterThanOrEqual(1);

    proxy.refuse(false);
    expect((await fetch(`${proxy.url()}/after`)).status).toBe(200);
    agent.destroy();
  });

  it('passes a refused upstream connect on to the client as a reset', async () => {
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));

    expect(await fetchFailure('/down')).toEqual({ name: 'TypeError', cause: 'ECONNRESET' });
    await vi.waitFor(() => expect(proxy.stats.open).toBe(0));
  });
});

describe('close', () => {
  it('ends held connections and stops listening', async () => {
    const socket = await openWebSocket();
    proxy.blackhole(true);
    const socketClosed = once(socket, 'close');

    await proxy.close();

    await socketClosed;
    expect(proxy.stats.open).toBe(0);
    expect(await fetchFailure('/gone')).toEqual({ name: 'TypeError', cause: 'ECONNREFUSED' });
  });
});
