import type { Db } from '../db/database';
import { keepBytes, type BlobStore } from '../files/blob-store';
import type { Clock } from '../lib/clock';
import type { ReleaseKeys } from '../releases/release-keys';
import { seedWrites } from './seed-writes';

/*
 * The demo's release management (issue 35 item 6): a firmware, the board the demo gateways are
 * (with its pins), and two released versions of the gateway agent, the older one what the demo
 * agents run (scripts/demo-agents.ts starts them as it), so a rollout of the newer one can be tried at once from
 * /app/versions/platforms. The artifacts go into the blob store as an upload's bytes do, and are
 * released (hashed and signed with the account's key) through the same code as a user's release.
 */

export const DEMO_RELEASES = {
  firmware: { type: 'Industrial Linux', name: 'IOT2050 image' },
  board: 'IOT2050',
  agent: 'Gateway agent',
  older: '1.0.0',
  newer: '1.1.0',
} as const;

/** The board's pins: digital inputs and outputs, and the I2C bus. */
const PINS = [
  { name: 'DI0', number: 0, kind: 'gpio' },
  { name: 'DI1', number: 1, kind: 'gpio' },
  { name: 'DO0', number: 4, kind: 'gpio' },
  { name: 'DO1', number: 5, kind: 'gpio' },
  { name: 'I2C SDA', number: 8, kind: 'i2c' },
  { name: 'I2C SCL', number: 9, kind: 'i2c' },
] as const;

/** A demo version's file: a small module (the demo agents run in one process and never load it). */
function demoArtifact(version: string): Uint8Array {
  return new TextEncoder().encode(
    `// Demo gateway agent ${version}: the demo agents restart into it in their own process.\nexport const version = '${version}';\n`,
  );
}

export async function seedDemoReleases(
  trx: Db,
  clock: Clock,
  accountId: string,
  gatewayIds: readonly string[],
  blobs: BlobStore,
  keys: ReleaseKeys,
): Promise<void> {
  const { create, update } = seedWrites(trx, clock, accountId, 'demo releases', keys);
  const firmwareId = await create('firmware', {
    ...DEMO_RELEASES.firmware,
    description: 'The gateways’ operating system image.',
  });
  const boardId = await create('boards', {
    name: DEMO_RELEASES.board,
    firmware_id: firmwareId,
    pins: PINS,
  });
  for (const [i, id] of gatewayIds.entries())
    await update('gateways', id, { board_id: boardId, tags: [i % 2 === 0 ? 'hall-1' : 'hall-2'] });
  for (const [version, notes] of [
    [DEMO_RELEASES.older, 'What the demo gateways run.'],
    [DEMO_RELEASES.newer, 'Roll it out to the demo gateways: they restart into it.'],
  ] as const) {
    const releaseId = await create('releases', {
      target: 'agent',
      name: DEMO_RELEASES.agent,
      version,
      notes,
      boards: [boardId],
    });
    const bytes = demoArtifact(version);
    const fileId = await create('files', {
      release_id: releaseId,
      kind: 'artifact',
      name: `agent-${version}.mjs`,
      type: 'text/javascript',
      size: bytes.byteLength,
      sha256: await keepBytes(blobs, accountId, bytes),
      state: 'ready',
    });
    await update('releases', releaseId, { artifact_file_id: fileId, state: 'released' });
  }
}
