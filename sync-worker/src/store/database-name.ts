/*
 * One store per user and account (a shared browser keeps each user's and each account's data
 * apart). RxDB accepts database names matching /^[a-z][_$a-z0-9-]*$/, and the Dexie storage makes
 * one IndexedDB database per collection, named `rxdb-dexie-<name>--<schema version>--<collection>`.
 */

/**
 * Ids to name characters, injectively: a-z and 0-9 stay, every other UTF-16 unit (upper case,
 * '_', '-') becomes `_` and four hex digits. The result never contains '-', so '-' can separate
 * the parts, and no store's name followed by '--' is the start of another store's name (wipe
 * finds a store's IndexedDB databases by that prefix).
 */
export function encodeNamePart(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    out += /[a-z0-9]/.test(ch) ? ch : `_${value.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** What the Dexie storage puts before a database name. */
const DEXIE = 'rxdb-dexie-';

/** Every store name of one user starts with this ('-' never occurs in an encoded id). */
function userStorePrefix(userId: string): string {
  return `plant-${encodeNamePart(userId)}-`;
}

/** The RxDB database name of one user's store for one account. */
export function storeName(userId: string, accountId: string): string {
  if (userId === '' || accountId === '') throw new Error('A store needs a user and an account.');
  return `${userStorePrefix(userId)}${encodeNamePart(accountId)}`;
}

/** Every IndexedDB database of every store of one user starts with this (sign-out). */
export function userDexiePrefix(userId: string): string {
  return `${DEXIE}${userStorePrefix(userId)}`;
}

/** Every IndexedDB database the Dexie storage makes for the store `name` starts with this. */
export function dexiePrefix(name: string): string {
  return `${DEXIE}${name}--`;
}

/** The IndexedDB database of one collection at one schema version. */
export function dexieDatabaseName(name: string, version: number, collection: string): string {
  return `${dexiePrefix(name)}${version}--${collection}`;
}

/** Every values cache database of one user starts with this (sign-out deletes them). */
export function userValuesPrefix(userId: string): string {
  return `plant-values-${encodeNamePart(userId)}-`;
}

/** The values cache (Dexie, DESIGN.md §8) of one user for one account. */
export function valuesDatabaseName(userId: string, accountId: string): string {
  if (userId === '' || accountId === '') throw new Error('A cache needs a user and an account.');
  return `${userValuesPrefix(userId)}${encodeNamePart(accountId)}`;
}
