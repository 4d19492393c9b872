import type { Page } from 'playwright-core';

/**
 * Holds a table of each of this origin's databases whose name starts with `start` and ends with
 * `end`, from the page (same origin as the worker), until `release(page)`: a read-write
 * transaction kept open by one read after another, so the worker's writes to it wait behind it.
 */
export async function holdTable(
  page: Page,
  database: { readonly start: string; readonly end: string },
  table: string,
): Promise<void> {
  await page.evaluate(
    async ([start, end, store]) => {
      const names = (await indexedDB.databases()).flatMap((d) =>
        d.name?.startsWith(start) === true && d.name.endsWith(end) ? [d.name] : [],
      );
      if (names.length === 0) throw new Error(`No database ${start}…${end}`);
      const state = window as unknown as { releaseHeld?: boolean };
      state.releaseHeld = false;
      for (const name of names) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error ?? new Error(`${name} did not open`));
        });
        const held = db.transaction(store, 'readwrite');
        // Closed once its transaction ends, however it ends: an open connection would hold up
        // the sign-out's deletion of the database.
        db.close();
        const rows = held.objectStore(store);
        const readAgain = () => {
          if (state.releaseHeld !== true) rows.count().onsuccess = readAgain;
        };
        readAgain();
      }
    },
    [database.start, database.end, table] as const,
  );
}

/** Ends `holdTable`'s hold. */
export const release = (page: Page) =>
  page.evaluate(() => Object.assign(window, { releaseHeld: true }));
