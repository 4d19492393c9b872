import { once } from 'node:events';
import net from 'node:net';
import { clearTimeout, setTimeout } from 'node:timers';

/**
 * A TCP proxy on loopback for tests that need a bad network between the worker and the server
 * (DESIGN.md §6). It forwards bytes as they come, so HTTP keep-alive and WebSocket upgrades pass
 * through unchanged while no fault is on, and each fault is what a client would really meet:
 * a reset is a TCP RST (ECONNRESET), a black hole is silence (a timeout).
 */
export interface TcpProxy {
  /** The port it listens on, on 127.0.0.1. */
  readonly port: number;
  /** `http://127.0.0.1:<port>` (or `ws://…`). */
  url(scheme?: 'http' | 'ws'): string;
  /**
   * Delays every chunk that arrives from now on by `ms`, in both directions. Order is kept: a
   * chunk is never delivered before one that arrived earlier, even when the latency drops.
   */
  setLatency(ms: number): void;
  /**
   * Reordering: from now on each chunk waits a further time drawn from `random` (0 up to `maxMs`)
   * on top of the latency, in both directions. A connection still delivers its bytes in order (a
   * chunk is never delivered before the one ahead of it), so what overtakes is the traffic of
   * different connections: a request sent on one connection after another's may reach the
   * server first, a broker message may overtake an HTTP answer. `random` (default Math.random)
   * is a test's seeded one; 0 turns it off.
   */
  setJitter(maxMs: number, random?: () => number): void;
  /**
   * While on, nothing is read or delivered in either direction, and sockets stay open: like a
   * partition, the client's writes back up and no answer comes. New connections are accepted and
   * held too. Turned off, the held bytes are delivered in order, as TCP would after the partition
   * heals; call `resetAll()` first to model a partition that outlives the connections.
   */
  blackhole(on: boolean): void;
  /**
   * While on, each new connection is accepted and reset at once (the client sees ECONNRESET, not
   * ECONNREFUSED: the port stays ours so no other process can take it). Open connections go on.
   */
  refuse(on: boolean): void;
  /** Resets (TCP RST) both sides of every open connection now. */
  resetAll(): void;
  /**
   * The connections open now go silent for good, as when a NAT or a firewall on the way forgets
   * them: nothing more is delivered on them in either direction, and they are never closed.
   * Connections made later pass as usual.
   */
  silenceOpen(): void;
  /**
   * One-shot: once `bytes` more bytes have gone client → server (over any connection), the
   * connection carrying the last of them is reset, e.g. to cut a request in the middle of its
   * body. The RST drops what the kernel has not yet delivered, so the server sees at most `bytes`.
   */
  resetAfterUpstreamBytes(bytes: number): void;
  /** Counts so far (a copy). */
  readonly stats: TcpProxyStats;
  /** Ends every socket and the listener. */
  close(): Promise<void>;
}

export interface TcpProxyStats {
  /** Connections accepted and forwarded (refused ones are not counted here). */
  readonly connections: number;
  /** Connections of which a socket is still open. */
  readonly open: number;
  /** Connections accepted and reset at once while `refuse` was on. */
  readonly refused: number;
  /** Connections reset by `resetAll` or `resetAfterUpstreamBytes`. */
  readonly resets: number;
  /** Bytes delivered client → server. */
  readonly bytesUp: number;
  /** Bytes delivered server → client. */
  readonly bytesDown: number;
}

export interface TcpProxyOptions {
  /** The port to listen on; 0 (the default) lets the system choose a free one. */
  readonly port?: number;
}

interface Faults {
  latency: number;
  /** The largest extra delay of a chunk (setJitter), and where its draws come from. */
  jitter: number;
  random: () => number;
  blackholed: boolean;
  refusing: boolean;
  /** Bytes left before `resetAfterUpstreamBytes` cuts; undefined when not armed. */
  cutAfter: number | undefined;
}

type Counts = { -readonly [K in keyof TcpProxyStats]: TcpProxyStats[K] };

/**
 * Ends a socket with an RST where Node can send one. `resetAndDestroy()` alone has two traps:
 * on a socket still connecting it waits for 'connect' (forever, if that never comes), and right
 * after `end()`, while the shutdown is pending, libuv refuses the reset: 'error' EINVAL, and the
 * socket is never closed. Both fall back to a plain destroy.
 */
function hardReset(socket: net.Socket): void {
  if (socket.destroyed) return;
  if (socket.connecting || (socket.writableEnded && !socket.writableFinished)) socket.destroy();
  else socket.resetAndDestroy();
}

/** One client connection and its upstream socket. */
class Link {
  dead = false;
  /** Gone silent for good (`silenceOpen`). */
  silent = false;
  readonly up: Pipe;
  readonly down: Pipe;

  constructor(
    readonly client: net.Socket,
    readonly upstream: net.Socket,
    faults: Faults,
    counts: Counts,
  ) {
    this.up = new Pipe(this, client, upstream, faults, (chunk) => {
      if (faults.cutAfter === undefined || chunk.length < faults.cutAfter) {
        if (faults.cutAfter !== undefined) faults.cutAfter -= chunk.length;
        counts.bytesUp += chunk.length;
        return chunk;
      }
      const last = chunk.subarray(0, faults.cutAfter);
      faults.cutAfter = undefined;
      counts.bytesUp += last.length;
      counts.resets += 1;
      this.dead = true;
      // Reset once the last bytes are with the kernel, so the server sees them before the RST.
      if (last.length === 0) this.reset();
      else upstream.write(last, () => this.reset());
      return undefined;
    });
    this.down = new Pipe(this, upstream, client, faults, (chunk) => {
      counts.bytesDown += chunk.length;
      return chunk;
    });
    // An error on one side (a reset, a refused connect, a write to a closed peer) is passed on
    // to the other side as a reset, as a real peer would see it.
    client.on('error', () => this.reset());
    upstream.on('error', () => this.reset());
  }

  pump(): void {
    this.up.pump();
    this.down.pump();
  }

  reset(): void {
    this.dead = true;
    this.up.stop();
    this.down.stop();
    hardReset(this.client);
    hardReset(this.upstream);
  }
}

/** One direction of a link: a queue of chunks, each delivered once it is due. */
class Pipe {
  private readonly queue: { chunk: Buffer; dueAt: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sourceEnded = false;
  private endSent = false;
  private blocked = false;

  constructor(
    private readonly link: Link,
    private readonly from: net.Socket,
    private readonly to: net.Socket,
    private readonly faults: Faults,
    /** Counts a chunk and returns what to deliver; undefined when the link was cut. */
    private readonly take: (chunk: Buffer) => Buffer | undefined,
  ) {
    from.on('data', (chunk: Buffer) => {
      // One queue per direction, delivered from its head: a chunk never overtakes the one ahead
      // of it, even when the latency drops in between.
      const extra = faults.jitter > 0 ? faults.random() * faults.jitter : 0;
      this.queue.push({ chunk, dueAt: performance.now() + faults.latency + extra });
      this.pump();
    });
    from.on('end', () => {
      this.sourceEnded = true;
      this.pump();
    });
    to.on('drain', () => {
      this.blocked = false;
      this.pump();
    });
  }

  pump(): void {
    this.stop();
    if (this.link.dead || this.to.destroyed) return;
    if (this.faults.blackholed || this.blocked || this.link.silent) {
      // Not reading is what makes the sender's writes back up, as with a real silent peer.
      this.from.pause();
      return;
    }
    for (let head = this.queue[0]; head; head = this.queue[0]) {
      const wait = head.dueAt - performance.now();
      if (wait > 0) {
        this.timer = setTimeout(() => this.pump(), Math.ceil(wait));
        break;
      }
      this.queue.shift();
      const chunk = this.take(head.chunk);
      if (chunk === undefined) return;
      if (!this.to.write(chunk)) {
        this.blocked = true;
        this.from.pause();
        return;
      }
    }
    if (this.queue.length === 0 && this.sourceEnded && !this.endSent) {
      this.endSent = true;
      this.to.end();
    }
    this.from.resume();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Starts a proxy on 127.0.0.1 that forwards each connection to `target`. */
export async function startTcpProxy(
  target: { readonly host: string; readonly port: number },
  options: TcpProxyOptions = {},
): Promise<TcpProxy> {
  const faults: Faults = {
    latency: 0,
    jitter: 0,
    random: Math.random,
    blackholed: false,
    refusing: false,
    cutAfter: undefined,
  };
  const counts: Counts = {
    connections: 0,
    open: 0,
    refused: 0,
    resets: 0,
    bytesUp: 0,
    bytesDown: 0,
  };
  const links = new Set<Link>();
  let closing: Promise<void> | undefined;

  // allowHalfOpen on both sides: a FIN from one side is passed on as a FIN, not as a close.
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    client.on('error', () => undefined);
    if (faults.refusing || closing) {
      counts.refused += 1;
      hardReset(client);
      return;
    }
    counts.connections += 1;
    counts.open += 1;
    const upstream = net.connect({
      host: target.host,
      port: target.port,
      allowHalfOpen: true,
      noDelay: true,
    });
    const link = new Link(client, upstream, faults, counts);
    links.add(link);
    let closed = 0;
    const onClose = (): void => {
      closed += 1;
      if (closed < 2) return;
      links.delete(link);
      counts.open -= 1;
    };
    client.once('close', onClose);
    upstream.once('close', onClose);
    link.pump();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The proxy has no port.');
  const port = address.port;

  const pumpAll = (): void => {
    for (const link of links) link.pump();
  };

  return {
    port,
    url: (scheme = 'http') => `${scheme}://127.0.0.1:${port}`,
    setLatency(ms) {
      if (!(ms >= 0 && Number.isFinite(ms))) throw new RangeError(`Latency ${ms} is not >= 0.`);
      faults.latency = ms;
    },
    setJitter(maxMs, random = Math.random) {
      if (!(maxMs >= 0 && Number.isFinite(maxMs)))
        throw new RangeError(`Jitter ${maxMs} is not >= 0.`);
      faults.jitter = maxMs;
      faults.random = random;
    },
    blackhole(on) {
      faults.blackholed = on;
      pumpAll();
    },
    refuse(on) {
      faults.refusing = on;
    },
    resetAll() {
      for (const link of links) {
        if (link.dead) continue;
        counts.resets += 1;
        link.reset();
      }
    },
    silenceOpen() {
      for (const link of links) link.silent = true;
      pumpAll();
    },
    resetAfterUpstreamBytes(bytes) {
      if (!(bytes >= 0 && Number.isInteger(bytes))) {
        throw new RangeError(`${bytes} is not a whole number of bytes.`);
      }
      faults.cutAfter = bytes;
    },
    get stats() {
      return { ...counts };
    },
    close() {
      closing ??= (async () => {
        const closed = once(server, 'close');
        server.close();
        const sockets = [...links].flatMap((link) => {
          link.dead = true;
          link.up.stop();
          link.down.stop();
          return [link.client, link.upstream];
        });
        const waits = sockets
          .filter((socket) => !socket.closed)
          .map((socket) => new Promise((resolve) => socket.once('close', resolve)));
        for (const socket of sockets) socket.destroy();
        await Promise.all([closed, ...waits]);
      })();
      return closing;
    },
  };
}
