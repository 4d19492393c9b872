import pg from 'pg';
import type { Logger } from '../logger';

/** Work that runs in one process of the cluster at a time: the pruners, later the schedulers. */
export interface ClusterWork {
  start(): void;
  stop(): Promise<void>;
}

/** The advisory lock's key: "plnt" in ASCII, one per database. */
const LEADER_LOCK = 0x706c6e74;
/** The connection's name in pg_stat_activity: who leads, for operators and tests. */
export const LEADER_APPLICATION = 'plant-leader';

/**
 * Runs periodic work in exactly one server process (DESIGN.md §11). On SQLite the process is
 * alone and leads from the start. On Postgres every process tries a session-level advisory lock
 * on a connection of its own, every `retryMs`; the holder runs the work for as long as its
 * connection lives. When the holder dies, Postgres ends its session and frees the lock, and the
 * next try of another process takes it; a holder whose connection breaks stops its work first.
 */
export class ClusterLeader {
  private leading = false;
  private stopped = false;
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private attempt: Promise<void> | undefined;

  constructor(
    private readonly work: readonly ClusterWork[],
    private readonly databaseUrl: string | undefined,
    private readonly log: Logger,
    private readonly retryMs = 5_000,
  ) {}

  /** Whether this process runs the work now. */
  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    if (this.databaseUrl === undefined) {
      this.lead();
      return;
    }
    this.attempt = this.tryToLead(this.databaseUrl);
  }

  private lead(): void {
    this.leading = true;
    for (const w of this.work) w.start();
  }

  private async tryToLead(url: string): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: url,
      application_name: `${LEADER_APPLICATION}-${process.pid}`,
      // A lock connection dropped silently (a NAT, a balancer) must be noticed, and a start
      // against a host that drops packets must not hang a stop.
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    client.on('error', (err) => this.lost(client, err));
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1) as locked',
        [LEADER_LOCK],
      );
      if (rows[0]?.locked !== true || this.stopped) {
        await client.end();
        this.retry(url);
        return;
      }
    } catch (err) {
      this.log.warn('cluster leadership attempt failed', { error: String(err) });
      await client.end().catch(() => undefined);
      this.retry(url);
      return;
    }
    this.client = client;
    client.on('end', () => this.lost(client, undefined));
    this.log.info('leading the cluster\u2019s periodic work', { pid: process.pid });
    this.lead();
  }

  private retry(url: string): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.attempt = this.tryToLead(url);
    }, this.retryMs);
    this.timer.unref();
  }

  /** The lock's session ended: the work stops here, and this process tries again later. */
  private lost(client: pg.Client, err: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    // Ends the session if it still stands, so that its lock does not outlive our leading.
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.log.warn('cluster leadership lost', { error: String(err ?? 'connection ended') });
    this.leading = false;
    const url = this.databaseUrl;
    void Promise.all(this.work.map((w) => w.stop())).then(() => {
      if (url !== undefined) this.retry(url);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.attempt;
    await Promise.all(this.work.map((w) => w.stop()));
    this.leading = false;
    const client = this.client;
    this.client = undefined;
    // Ending the session frees the lock at once for the next process.
    await client?.end().catch(() => undefined);
  }
}
