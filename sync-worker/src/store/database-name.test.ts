import { describe, expect, it } from 'vitest';
import { dexiePrefix, encodeNamePart, storeName } from './database-name';

// RxDB's rule for database names (dev-mode checks it; the Dexie storage builds names from it).
const RXDB_NAME = /^[a-z][_$a-z0-9-]*$/;

describe('storeName', () => {
  it('gives valid RxDB names for UUIDs and any id characters', () => {
    const name = storeName('0193a5b2-7c1d-7e4f-8a9b-0c1d2e3f4a5b', 'Acct_Root-1');
    expect(name).toMatch(RXDB_NAME);
  });

  it('keeps ids apart that differ only in case, separators or split', () => {
    const names = [
      storeName('ab', 'c'),
      storeName('a', 'bc'),
      storeName('AB', 'c'),
      storeName('a-b', 'c'),
      storeName('a_b', 'c'),
      storeName('a', 'b-c'),
    ];
    expect(new Set(names).size).toBe(names.length);
    expect(encodeNamePart('A')).not.toBe(encodeNamePart('a'));
  });

  it('no store’s database prefix is the start of another store’s names', () => {
    const a = storeName('u', 'acct');
    const b = storeName('u', 'acct--0--models');
    expect(`rxdb-dexie-${b}--0--models`.startsWith(dexiePrefix(a))).toBe(false);
  });

  it('refuses an empty user or account', () => {
    expect(() => storeName('', 'a')).toThrow();
    expect(() => storeName('u', '')).toThrow();
  });
});
