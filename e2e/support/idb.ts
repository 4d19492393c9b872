import type { Page } from 'playwright-core';

let holds = 0;

/**
 * Holds a table of each of this origin's databases whose name starts with `start` and ends with
 * `end`, from the page (same origin as the worker), until the answered release is called: a
 * read-write transaction kept open by one read after another, so the worker's writes to it wait
 * behind it. Each hold has its own release.
 */
export async function holdTable(
  page: Page,
  database: { readonly start: string; readonly end: string },
  table: string,
): Promise<() => Promise<void>> {
  holds += 1;
  const flag = `releaseHeld${String(holds)}`;
  await page.evaluate(
    async ([start, end, store, name]) => {
      const names = (await indexedDB.databases()).flatMap((d) =>
        d.name?.startsWith(start) === true && d.name.endsWith(end) ? [d.name] : [],
      );
      if (names.length === 0) throw new Error(`No database ${start}…${end}`);
      const state = window as unknown as Record<string, boolean>;
      state[name] = false;
      for (const db of await Promise.all(
        names.map(
          (held) =>
            new Promise<IDBDatabase>((resolve, reject) => {
              const open = indexedDB.open(held);
              open.onsuccess = () => resolve(open.result);
              open.onerror = () => reject(open.error ?? new Error(`${held} did not open`));
            }),
        ),
      )) {
        const held = db.transaction(store, 'readwrite');
        // Closed once its transaction ends, however it ends: an open connection would hold up
        // the sign-out's deletion of the database.
        db.close();
        const rows = held.objectStore(store);
        const readAgain = () => {
          if (state[name] !== true) rows.count().onsuccess = readAgain;
        };
        readAgain();
      }
    },
    [database.start, database.end, table, flag] as const,
  );
  return async () => {
    await page.evaluate((name) => Object.assign(window, { [name]: true }), flag);
  };
}

/**
 * Every row of a table of each of this origin's databases whose name contains `part` and ends
 * with `end`, read straight from IndexedDB in the page (what is written to disk, not what the
 * worker answers).
 */
export function readTable(
  page: Page,
  database: { readonly part: string; readonly end: string },
  table: string,
): Promise<unknown[]> {
  return page.evaluate(
    async ([part, end, store]) => {
      const names = (await indexedDB.databases()).flatMap((d) =>
        d.name?.includes(part) === true && d.name.endsWith(end) ? [d.name] : [],
      );
      const rows: unknown[] = [];
      for (const name of names) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error ?? new Error(`cannot open ${name}`));
        });
        try {
          rows.push(
            ...(await new Promise<unknown[]>((resolve, reject) => {
              const all = db.transaction(store, 'readonly').objectStore(store).getAll();
              all.onsuccess = () => resolve(all.result as unknown[]);
              all.onerror = () => reject(all.error ?? new Error(`cannot read ${name}`));
            })),
          );
        } finally {
          db.close();
        }
      }
      return rows;
    },
    [database.part, database.end, table] as const,
  );
}
