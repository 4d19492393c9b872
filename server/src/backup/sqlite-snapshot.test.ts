import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteSnapshot } from './sqlite-snapshot';

const folders: string[] = [];
afterEach(async () => {
  for (const f of folders.splice(0)) await fs.rm(f, { recursive: true, force: true });
});

describe('a SQLite snapshot', () => {
  it('copies the moment it was opened at, in steps, while another connection keeps writing', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-snapshot-'));
    folders.push(dir);
    const file = path.join(dir, 'db.sqlite');
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT NOT NULL)');
    const insert = writer.prepare('INSERT INTO t (pad) VALUES (?)');
    const many = writer.transaction((n: number) => {
      for (let i = 0; i < n; i++) insert.run('x'.repeat(400));
    });
    many(5_000);
    // A writer like the server's ingest: a transaction between every step of the copy.
    let writing = true;
    let written = 0;
    const write = () => {
      if (!writing) return;
      many(20);
      written += 20;
      setImmediate(write);
    };
    const snapshot = SqliteSnapshot.open(file);
    const atOpen = snapshot.all<{ n: number }>('SELECT count(*) AS n FROM t')[0]?.n;
    write();
    try {
      let steps = 0;
      // Small steps (the backup's are 4,096 pages): about 40 of them, each after other writes.
      // Without the held read transaction, each write restarts the copy and it never ends.
      await snapshot.copyTo(path.join(dir, 'copy.sqlite'), () => (steps += 1), 16);
      expect(steps).toBeGreaterThan(10);
    } finally {
      writing = false;
      snapshot.close();
    }
    expect(written).toBeGreaterThan(0);
    const copy = new SQLite(path.join(dir, 'copy.sqlite'), { readonly: true });
    try {
      expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: atOpen });
    } finally {
      copy.close();
    }
    expect(writer.prepare('SELECT count(*) AS n FROM t').get()).toEqual({
      n: (atOpen ?? 0) + written,
    });
    writer.close();
  });
});
