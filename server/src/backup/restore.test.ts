import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openConfiguredDatabase } from '../db/database';
import { startTestServer, type TestServer } from '../testing/harness';
import { testDatabase, type TestDatabase } from '../testing/test-database';
import { runBackup } from './backup';
import { DATA_FOLDER, MANIFEST_FILE, type BackupManifest } from './backup-manifest';
import { backupCommand, restoreCommand, type CommandOutput } from './commands';
import { RESTORE_STAGING_PREFIX } from './data-dir-files';
import { runRestore } from './restore';

/*
 * What a restore refuses, and what it leaves when it does (issue 38 item 3): a backup's damage is
 * found before DATA_DIR or the database is touched; a DATA_DIR or database that holds anything
 * is replaced only with --force, and then DATA_DIR's old contents are kept aside. And the two
 * commands' arguments and exit codes.
 */

let server: TestServer;
let root: string;
let backup: string;
let manifest: BackupManifest;
const databases: TestDatabase[] = [];

beforeAll(async () => {
  server = await startTestServer();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-restore-'));
  backup = path.join(root, 'backup');
  manifest = await runBackup({
    dataDir: server.dataDir,
    databaseUrl: server.databaseUrl,
    out: backup,
  });
});

afterAll(async () => {
  await server.close();
  for (const database of databases.splice(0)) await database.remove();
  await fs.rm(root, { recursive: true, force: true });
});

/** A place to restore into: a folder that does not exist yet, and on Postgres a database. */
async function target(options: { migrated?: boolean } = {}) {
  const database =
    server.databaseUrl === undefined ? undefined : await testDatabase(undefined, options);
  if (database !== undefined) databases.push(database);
  const dataDir = path.join(
    database?.dataDir ?? (await fs.mkdtemp(path.join(root, 'target-'))),
    'data',
  );
  return { dataDir, databaseUrl: database?.databaseUrl };
}

/** A copy of the backup to damage. */
async function copyOfBackup(): Promise<string> {
  const copy = await fs.mkdtemp(path.join(root, 'copy-'));
  await fs.cp(backup, copy, { recursive: true });
  return copy;
}

/** What a folder's parent holds besides it: a restore that refused leaves no staging behind. */
async function leftBeside(dataDir: string): Promise<string[]> {
  return (await fs.readdir(path.dirname(dataDir))).filter((n) =>
    n.startsWith(`${path.basename(dataDir)}${RESTORE_STAGING_PREFIX}`),
  );
}

async function editManifest(folder: string, edit: (m: Record<string, unknown>) => void) {
  const file = path.join(folder, MANIFEST_FILE);
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  edit(json);
  await fs.writeFile(file, JSON.stringify(json));
}

describe('a restore', () => {
  it('checks every file of the backup before it touches anything', async () => {
    const into = await target();
    const blob = manifest.files.find((f) => f.path.startsWith(`${DATA_FOLDER}/files/blobs/`));
    if (blob === undefined) throw new Error('the demo data has no blob');

    const damaged = await copyOfBackup();
    const file = path.join(damaged, ...blob.path.split('/'));
    const bytes = await fs.readFile(file);
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    await fs.writeFile(file, bytes);
    await expect(runRestore({ ...into, from: damaged })).rejects.toThrow(
      `the backup is damaged: ${blob.path} differs from its checksum`,
    );
    await fs.rm(file);
    await expect(runRestore({ ...into, from: damaged })).rejects.toThrow(
      `the backup is damaged: ${blob.path} is missing or unreadable`,
    );
    // Nothing was made: no DATA_DIR, no copy beside it, and on Postgres still no tables.
    await expect(fs.stat(into.dataDir)).rejects.toThrow(/ENOENT/);
    expect(await leftBeside(into.dataDir)).toEqual([]);
    if (into.databaseUrl !== undefined) {
      const db = openConfiguredDatabase({ dataDir: into.dataDir, databaseUrl: into.databaseUrl });
      try {
        expect(await db.introspection.getTables()).toEqual([]);
      } finally {
        await db.destroy();
      }
    }

    const unfinished = await copyOfBackup();
    await fs.rm(path.join(unfinished, MANIFEST_FILE));
    await expect(runRestore({ ...into, from: unfinished })).rejects.toThrow(
      /holds no manifest\.json: not a backup, or one that did not finish/,
    );
    const newer = await copyOfBackup();
    await editManifest(newer, (m) => {
      (m.migrations as { platform: string[] }).platform.push('29990101000000-from-the-future');
    });
    await expect(runRestore({ ...into, from: newer })).rejects.toThrow(
      /made by a newer version of the platform \(migrations unknown here: 29990101000000-from-the-future\)/,
    );
    const escaping = await copyOfBackup();
    await editManifest(escaping, (m) => {
      (m.files as { path: string }[]).push({ ...blob, path: 'data/../../outside' });
    });
    await expect(runRestore({ ...into, from: escaping })).rejects.toThrow(/not a backup manifest/);
    await expect(
      runRestore({
        dataDir: into.dataDir,
        databaseUrl:
          into.databaseUrl === undefined ? 'postgres://nobody@127.0.0.1:1/none' : undefined,
        from: backup,
      }),
    ).rejects.toThrow(/DATABASE_URL/);
    await expect(fs.stat(into.dataDir)).rejects.toThrow(/ENOENT/);
  });

  it('refuses while the server answers, and a DATA_DIR that holds anything unless --force', async () => {
    const into = await target();
    await expect(runRestore({ ...into, from: backup, serverUrl: server.url })).rejects.toThrow(
      `a server answers at ${server.url}: stop it before restoring`,
    );
    await fs.mkdir(into.dataDir, { recursive: true });
    await fs.writeFile(path.join(into.dataDir, 'kept.txt'), 'mine');
    await expect(runRestore({ ...into, from: backup })).rejects.toThrow(
      `DATA_DIR ${into.dataDir} is not empty`,
    );
    expect(await fs.readdir(into.dataDir)).toEqual(['kept.txt']);

    const { replaced } = await runRestore({ ...into, from: backup, force: true });
    if (replaced === undefined) throw new Error('nothing was moved aside');
    expect(await fs.readFile(path.join(replaced, 'kept.txt'), 'utf8')).toBe('mine');
    expect(path.dirname(replaced)).toBe(path.dirname(into.dataDir));
    const restored = await fs.readdir(into.dataDir);
    expect(restored).toEqual(expect.arrayContaining(['files', 'vapid.json', 'demo-agents.json']));
    expect(restored).not.toContain('kept.txt');
    if (into.databaseUrl === undefined) expect(restored).toContain(DATABASE_FILE);
    expect(await leftBeside(into.dataDir)).toEqual([]);
    // The secrets are private again.
    expect((await fs.stat(path.join(into.dataDir, 'vapid.json'))).mode & 0o077).toBe(0);
  });

  it('puts back every model with the change log restarted; on Postgres into tables only with --force', async () => {
    // On Postgres a database another server migrated: tables, none of the backup's rows.
    const into = await target({ migrated: true });
    if (into.databaseUrl !== undefined) {
      await expect(runRestore({ ...into, from: backup })).rejects.toThrow(
        /is not empty: restore into an empty database, or add --force/,
      );
    }
    await runRestore({ ...into, from: backup, force: into.databaseUrl !== undefined });
    const db = openConfiguredDatabase(into);
    try {
      const { n } = await db
        .selectFrom('models')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n)).toBe(manifest.summary.models);
      // Browsers reload (sync-restart.ts): no update is left to replay, every account's clock
      // stands at the restore.
      expect(await db.selectFrom('model_updates').selectAll().execute()).toEqual([]);
      const clocks = await db.selectFrom('account_clocks').select(['seq', 'ts']).execute();
      const accounts = await db.selectFrom('accounts').select('id').execute();
      expect(clocks).toHaveLength(accounts.length);
      for (const clock of clocks) {
        expect(clock.seq).toBeGreaterThan(0);
        expect(clock.ts).toBeGreaterThanOrEqual(Date.parse(manifest.taken_at));
      }
    } finally {
      await db.destroy();
    }
  });
});

describe('the backup and restore commands', () => {
  const output = () => {
    const lines = { out: [] as string[], err: [] as string[] };
    const to: CommandOutput = { out: (l) => lines.out.push(l), err: (l) => lines.err.push(l) };
    return { lines, to };
  };
  const env = (more: Record<string, string> = {}) => ({
    DATA_DIR: server.dataDir,
    ...(server.databaseUrl === undefined ? {} : { DATABASE_URL: server.databaseUrl }),
    ...more,
  });

  it('say what is missing or wrong in their arguments, with exit code 2', async () => {
    const a = output();
    expect(await backupCommand([], env(), a.to)).toBe(2);
    expect(a.lines.err).toEqual([
      'backup: --out DIR is missing',
      'usage: npm run backup -- --out DIR   (DIR: a new or empty folder)',
    ]);
    const b = output();
    expect(await restoreCommand(['--from', backup, '--bogus'], env(), b.to)).toBe(2);
    expect(b.lines.err[0]).toMatch(/^restore: Unknown option '--bogus'/);
    const c = output();
    expect(await restoreCommand([], env(), c.to)).toBe(2);
    expect(c.lines.err[0]).toBe('restore: --from DIR is missing');
  });

  it('refuse with exit code 1 and a reason; a backup prints its progress and ends with done', async () => {
    const unreadable = output();
    expect(
      await restoreCommand(['--from', path.join(root, 'nothing-here')], env(), unreadable.to),
    ).toBe(1);
    expect(unreadable.lines.err).toEqual([
      `restore failed: ${path.join(root, 'nothing-here')} holds no manifest.json: not a backup, or one that did not finish`,
    ]);
    const inside = output();
    expect(await backupCommand(['--out', path.join(server.dataDir, 'b')], env(), inside.to)).toBe(
      1,
    );
    expect(inside.lines.err[0]).toMatch(/is inside DATA_DIR/);
    const taken = output();
    expect(await backupCommand(['--out', backup], env(), taken.to)).toBe(1);
    expect(taken.lines.err[0]).toBe(
      `backup failed: ${backup} is not empty: give a new folder for the backup`,
    );
    const badConfig = output();
    expect(await backupCommand(['--out', 'x'], env({ PORT: 'none' }), badConfig.to)).toBe(1);
    expect(badConfig.lines.err[0]).toMatch(/PORT must be a whole number/);

    // A relative folder is where npm was run (INIT_CWD), not the repository's root.
    const done = output();
    expect(await backupCommand(['--out', 'relative'], env({ INIT_CWD: root }), done.to)).toBe(0);
    expect(done.lines.out[0]).toBe(`backup: copying the files of ${server.dataDir}`);
    expect(done.lines.out.at(-1)).toMatch(
      new RegExp(`^backup: done: \\d+ models, \\d+ files, .* in ${path.join(root, 'relative')}$`),
    );
    expect(await fs.readdir(path.join(root, 'relative'))).toContain(MANIFEST_FILE);
  });
});
