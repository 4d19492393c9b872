/**
 * What a test file hands on to the worker's next file (issue 29): the files of a worker share
 * this module graph (`isolate: false`), so what one file parks the next can take instead of
 * starting its own (warm browsers in browser.ts, page servers in web.ts). What nobody takes within
 * `idleMs` closes (the worker's last file parks for no one), and the wait never keeps the process
 * alive.
 */
export class Parking<T extends { close(): Promise<void> }> {
  private readonly parked: T[] = [];
  private idle: NodeJS.Timeout | undefined;

  constructor(
    /** At most this many wait; one more closes at once. */
    private readonly limit = Number.POSITIVE_INFINITY,
    private readonly idleMs = 10_000,
  ) {}

  /** The last one parked that `fits`, taken out (undefined when none). */
  take(fits: (item: T) => boolean = () => true): T | undefined {
    const at = this.parked.findLastIndex(fits);
    return at < 0 ? undefined : this.parked.splice(at, 1)[0];
  }

  /** Keeps `item` for the next file, or closes it when `limit` wait already. */
  async park(item: T): Promise<void> {
    if (this.parked.length >= this.limit) return item.close();
    this.parked.push(item);
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      for (const waiting of this.parked.splice(0)) void waiting.close();
    }, this.idleMs);
    this.idle.unref();
  }
}
