import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import type { SyncEngine } from './engine';
import { startTcpProxy, type TcpProxy } from './testing/tcp-proxy';
import { FAST, localState, SyncFixture, until, type Session } from './testing/sync-fixture';

/*
 * The engine between the real server and a TCP proxy that fails the way plant networks do:
 * offline periods, reloads while offline, resets in the middle of a batch, half-open sockets.
 * Nothing typed may be lost and nothing applied twice.
 */
let f: SyncFixture;
let proxy: TcpProxy;
let admin: Session;

beforeAll(async () => {
  f = await SyncFixture.start();
  const port = Number(new URL(f.server.url).port);
  proxy = await startTcpProxy({ host: '127.0.0.1', port });
  admin = await f.session(DEMO_USERS.admin);
});
afterAll(async () => {
  await f.close();
  await proxy.close();
});

const throughProxy = (session: Session) => f.engine(session, { origin: proxy.url('http') });

function offline(on: boolean) {
  proxy.refuse(on);
  if (on) proxy.resetAll();
}

async function ready(engine: SyncEngine) {
  await until('bootstrap and broker', () => {
    const c = engine.status.connection;
    return engine.status.bootstrap.name === 'done' && c.name === 'connected' && c.subscribed;
  });
}

/** Rows on the server whose name starts with `prefix`. */
async function serverNames(prefix: string): Promise<string[]> {
  const rows = await f.server.db
    .selectFrom('models')
    .select('attributes')
    .where('account_id', '=', admin.accountId)
    .where('type', '=', 'asset')
    .execute();
  return rows
    .map((r) => (JSON.parse(r.attributes) as { name: string }).name)
    .filter((n) => n.startsWith(prefix))
    .sort();
}

/** Creates assets through the API as another client would (each: 2 model updates). */
async function createElsewhere(count: number, prefix: string) {
  const batch = Array.from({ length: count }, (_, i) => ({
    batch_id: i,
    data: { name: `${prefix} ${String(i).padStart(3, '0')}` },
  }));
  const res = await f.server.call('POST', apiPaths.collection('assets'), {
    token: admin.token,
    json: batch,
  });
  expect(res.status).toBe(200);
}

describe('offline and back', () => {
  it('reload while offline with 50 pending writes: after reconnecting all 50 are on the server exactly once', async () => {
    const first = await throughProxy(admin);
    await ready(first);
    offline(true);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const made = await first.create('asset', { name: `Offline ${String(i).padStart(2, '0')}` });
      if (!('data' in made)) throw new Error(made.error.message);
      ids.push(made.data.id);
    }
    expect(first.status.pendingWrites).toBe(50);
    // The page is reloaded while still offline: the worker starts again on the same IndexedDB.
    await f.stopEngine(first);
    const second = await throughProxy(admin);
    await until('pending writes read back', () => second.status.pendingWrites === 50);
    expect((await second.get('asset', ids[7] ?? ''))?.attributes.name).toBe('Offline 07');
    expect(await serverNames('Offline')).toEqual([]);
    offline(false);
    await until('outbox drained', () => second.status.pendingWrites === 0, 20_000);
    expect(await serverNames('Offline')).toEqual(
      Array.from({ length: 50 }, (_, i) => `Offline ${String(i).padStart(2, '0')}`),
    );
    await until(
      'confirmed locally',
      async () => (await second.get('asset', ids[0] ?? ''))?.pending === false,
    );
    await f.stopEngine(second);
  });
});

describe('missed updates', () => {
  it('20 missed while disconnected: caught up from the log, no wipe', async () => {
    const engine = await throughProxy(admin);
    await ready(engine);
    const resyncs: string[] = [];
    engine.onEvent((e) => {
      if (e.name === 'resynced') resyncs.push(e.reason);
    });
    offline(true);
    await until('disconnected', () => engine.status.connection.name !== 'connected');
    await createElsewhere(10, 'Missed twenty');
    offline(false);
    await until(
      'caught up',
      async () => (await localState(engine)).size === (await f.serverState(admin.accountId)).size,
    );
    expect(await localState(engine)).toEqual(await f.serverState(admin.accountId));
    expect(resyncs).toEqual([]);
    await f.stopEngine(engine);
  });

  it('150 missed while disconnected: the local models are wiped and loaded again, equal to the server', async () => {
    const engine = await throughProxy(admin);
    await ready(engine);
    const pendingBefore = await engine.create('asset', { name: 'Typed before the gap' });
    if (!('data' in pendingBefore)) throw new Error(pendingBefore.error.message);
    await until('sent', () => engine.status.pendingWrites === 0);
    const resyncs: string[] = [];
    engine.onEvent((e) => {
      if (e.name === 'resynced') resyncs.push(e.reason);
    });
    offline(true);
    await until('disconnected', () => engine.status.connection.name !== 'connected');
    await createElsewhere(75, 'Missed many');
    offline(false);
    await until('resynced', () => resyncs.length === 1);
    expect(resyncs[0]).toMatch(/150 missed/);
    await until('loaded', () => engine.status.bootstrap.name === 'done');
    expect(await localState(engine)).toEqual(await f.serverState(admin.accountId));
    await f.stopEngine(engine);
  });
});

describe('network faults', () => {
  it('a connection reset in the middle of a batch: the batch goes again, applied once', async () => {
    const engine = await throughProxy(admin);
    await ready(engine);
    // Long names make the batch large enough to be cut in the middle of its body.
    const names = Array.from(
      { length: 40 },
      (_, i) => `Reset ${String(i).padStart(2, '0')} ${'x'.repeat(200)}`,
    );
    proxy.resetAfterUpstreamBytes(3_000);
    for (const name of names) await engine.create('asset', { name });
    await until('outbox drained', () => engine.status.pendingWrites === 0, 20_000);
    expect(proxy.stats.resets).toBeGreaterThan(0);
    expect(await serverNames('Reset ')).toEqual(names);
    await f.stopEngine(engine);
  });

  it('a half-open socket while a batch is out, then a reset: nothing lost, nothing doubled', async () => {
    const engine = await throughProxy(admin);
    await ready(engine);
    proxy.blackhole(true);
    for (let i = 0; i < 10; i++) await engine.create('asset', { name: `Half-open ${i}` });
    // The batch is on a socket that swallows it; the request never completes.
    await new Promise((r) => setTimeout(r, 300));
    // The network "comes back" as a new connection: the old one is reset, as a NAT timeout would.
    proxy.resetAll();
    proxy.blackhole(false);
    await until('outbox drained', () => engine.status.pendingWrites === 0, 20_000);
    expect(await serverNames('Half-open')).toEqual(
      Array.from({ length: 10 }, (_, i) => `Half-open ${i}`),
    );
    await f.stopEngine(engine);
  });

  it('a connection that goes silent for good while a batch is out: sent again on a new one, no reload', async () => {
    // A NAT or a plant's proxy forgets the connection: no reset ever comes, no answer either.
    const engine = await f.engine(admin, {
      origin: proxy.url('http'),
      timings: { ...FAST, answerWithinMs: 1_000 },
    });
    await ready(engine);
    proxy.blackhole(true);
    for (let i = 0; i < 3; i++) await engine.create('asset', { name: `Silent ${i}` });
    await until('the batch out', async () =>
      (await engine.replica.outbox()).some((e) => e.state === 'sending'),
    );
    proxy.silenceOpen();
    proxy.blackhole(false);
    await until('outbox drained', () => engine.status.pendingWrites === 0, 20_000);
    expect(await serverNames('Silent')).toEqual(['Silent 0', 'Silent 1', 'Silent 2']);
    await f.stopEngine(engine);
  });

  it('the answer lost after the server applied the batch: sent again, answered, not applied twice', async () => {
    const engine = await throughProxy(admin);
    await ready(engine);
    // Slow answers: the server has applied the batch well before its answer gets back.
    proxy.setLatency(400);
    try {
      for (let i = 0; i < 5; i++) await engine.create('asset', { name: `Lost answer ${i}` });
      await until(
        'applied on the server',
        async () => (await serverNames('Lost answer')).length === 5,
      );
      proxy.resetAll();
    } finally {
      proxy.setLatency(0);
    }
    await until('outbox drained', () => engine.status.pendingWrites === 0, 20_000);
    expect(await serverNames('Lost answer')).toEqual(
      [0, 1, 2, 3, 4].map((i) => `Lost answer ${i}`),
    );
    await f.stopEngine(engine);
  });

  it('with 150 ms added latency each way, writes and live updates still converge', async () => {
    const engine = await throughProxy(admin);
    await ready(engine);
    proxy.setLatency(150);
    try {
      for (let i = 0; i < 5; i++) await engine.create('asset', { name: `Slow ${i}` });
      await createElsewhere(3, 'Latent elsewhere');
      await until('drained', () => engine.status.pendingWrites === 0, 20_000);
      await until(
        'converged',
        async () => {
          const [local, server] = [await localState(engine), await f.serverState(admin.accountId)];
          return JSON.stringify([...local].sort()) === JSON.stringify([...server].sort());
        },
        20_000,
      );
      expect(await serverNames('Slow ')).toEqual([0, 1, 2, 3, 4].map((i) => `Slow ${i}`));
    } finally {
      proxy.setLatency(0);
    }
    await f.stopEngine(engine);
  });
});

describe('outbox limits and triggers', () => {
  it('batches stay under the body limit; a write too large on its own is refused alone and shown', async () => {
    const engine = await f.engine(admin);
    await ready(engine);
    const rejected: string[] = [];
    engine.onEvent((e) => {
      if (e.name === 'write-rejected') rejected.push(e.message);
    });
    const settings = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`setting ${i}`, 'p'.repeat(1900)]),
    );
    // 60 writes of about 2 KB each: more than one body's worth, all fine.
    for (let i = 0; i < 60; i++) {
      await engine.create('asset', {
        name: `Sized ${String(i).padStart(2, '0')}`,
        description: 'd'.repeat(2000),
      });
    }
    const big = await engine.create('integration', { name: 'Too big', settings });
    if (!('data' in big)) throw new Error(big.error.message);
    // The failed count shows when the refusal is stored; the event follows when its write ends.
    await until('settled', () => engine.status.pendingWrites === 0 && rejected.length > 0, 20_000);
    expect(await serverNames('Sized')).toHaveLength(60);
    expect(rejected).toEqual(['The request body is too large.']);
    expect(engine.status.failedWrites).toBe(1);
    expect(await engine.get('asset', big.data.id)).toBeNull();
    await f.stopEngine(engine);
  });

  it('a gateway answering 502 many times over: the write waits and goes when the server is back', async () => {
    let gatewayDown = 7;
    const engine = await f.engine(admin, {
      fetch: (input, init) => {
        if (init?.method === 'POST' && gatewayDown > 0) {
          gatewayDown -= 1;
          return Promise.resolve(new Response('', { status: 502 }));
        }
        return fetch(input, init);
      },
    });
    await ready(engine);
    // The store is this user's: writes refused in earlier tests are still listed as failed.
    const failedBefore = engine.status.failedWrites;
    await engine.create('asset', { name: 'Behind a gateway' });
    await until('gateway back', () => gatewayDown === 0, 20_000);
    await until('sent', () => engine.status.pendingWrites === 0, 20_000);
    expect(engine.status.failedWrites).toBe(failedBefore);
    expect(await serverNames('Behind a gateway')).toEqual(['Behind a gateway']);
    await f.stopEngine(engine);
  });

  it('with the broker unreachable, any API answer makes the worker look for missed updates', async () => {
    // The broker is at a port where nothing listens; HTTP works. Reconnects are slow, so the
    // credentials calls of its attempts are not the answers that trigger the look here.
    const engine = await f.engine(admin, {
      mqttUrl: 'ws://127.0.0.1:1/mqtt',
      timings: { ...FAST, broker: { ...FAST.broker, reconnectMs: 60_000 } },
    });
    await until('loaded', () => engine.status.bootstrap.name === 'done');
    await new Promise((r) => setTimeout(r, 100));
    await engine.idle();
    const res = await f.server.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      json: { name: 'Seen after an answer' },
    });
    const id = (res.json as { data: { id: string } }).data.id;
    await new Promise((r) => setTimeout(r, 200));
    expect(await engine.get('asset', id)).toBeNull();
    await engine.api.get(apiPaths.user());
    await until('caught up', async () => (await engine.get('asset', id)) !== null);
    await f.stopEngine(engine);
  });
});
