import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { startS7TestServer } from './s7-server';

/** V8's collector, for this process (the flag is read when a context is made). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

it('outlives the garbage collection of servers it closed (node-snap7 closes global handles then)', async () => {
  for (let i = 0; i < 3; i++) {
    const server = await startS7TestServer();
    await server.close();
  }
  const gc = collector();
  for (let i = 0; i < 3; i++) {
    gc();
    // The handles' close runs on the event loop's next turn: give it those turns.
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Still here: a third server starts and serves after the collections.
  const server = await startS7TestServer();
  expect(server.clients()).toBe(0);
  await server.close();
});
