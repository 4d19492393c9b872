/** Runs a task while holding something exclusive (another tab's tasks wait for it). */
export type Exclusive = <T>(task: () => Promise<T>) => Promise<T>;

const alone: Exclusive = (task) => task();

/**
 * Runs tasks one after the other (STYLE.md: writes to the local store go through one queue, so
 * bulk writes never interleave). Every RxDB write reads first, so two interleaved read-compute-
 * write tasks could each compute from a state the other is replacing; one at a time they cannot.
 * With `exclusive` (the store's cross-tab lock), each task also runs alone among every tab's
 * queue of the same store. A failing task rejects its own promise and does not stop the tasks
 * after it.
 */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly exclusive: Exclusive = alone) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    this.waiting++;
    const result = this.tail
      .then(() => this.exclusive(task))
      .finally(() => {
        this.waiting--;
      });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Tasks queued or running. */
  get size(): number {
    return this.waiting;
  }

  /** Resolves when every task queued so far has ended. */
  async idle(): Promise<void> {
    await this.tail;
  }
}

/** The Web Lock every tab's writes to the store `name` take turns on. */
export function storeWriteLockName(name: string): string {
  return `plant-store-write-${name}`;
}

/**
 * The store's cross-tab write lock (Web Locks: a tab's worker and every other tab's worker of the
 * origin share them). Without Web Locks (Node tests), tasks are only queued within this worker.
 * A tab that closes releases its locks, so a closed tab never holds the others up.
 */
export function crossTabExclusive(name: string): Exclusive {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks === undefined) return alone;
  const lockName = storeWriteLockName(name);
  return async <T>(task: () => Promise<T>): Promise<T> =>
    await locks.request(lockName, { mode: 'exclusive' }, task);
}
