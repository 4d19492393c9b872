import type { Logger } from './log';

/**
 * The pieces by which followers use the leader tab's broker connection (live values, the gateway
 * terminal): a BroadcastChannel between the tabs' workers of one store, and, on the leader's
 * side, what each other tab last said it wants.
 */

/** A BroadcastChannel between the workers of one store (none where the runtime lacks it). */
export class TabChannel<M> {
  private readonly channel: BroadcastChannel | undefined;
  private closed = false;

  constructor(
    name: string,
    onMessage: (message: M) => void,
    private readonly log: Logger,
  ) {
    this.channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name);
    this.channel?.addEventListener('message', (e: MessageEvent<M>) => {
      if (!this.closed) onMessage(e.data);
    });
  }

  post(message: M): void {
    if (this.closed) return;
    try {
      this.channel?.postMessage(message);
    } catch (err) {
      this.log.warn('tab channel post failed', { error: String(err) });
    }
  }

  close(): void {
    this.closed = true;
    this.channel?.close();
  }
}

/** Each other tab's wanted items, forgotten when not said again within `ttlMs`. */
export class TabWants {
  private readonly wants = new Map<string, { items: readonly string[]; at: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  note(tab: string, items: readonly string[]): void {
    this.wants.set(tab, { items, at: this.now() });
  }

  /** `local` and every live tab's items. */
  union(local: Iterable<string>): Set<string> {
    const all = new Set(local);
    const expired = this.now() - this.ttlMs;
    for (const [tab, want] of this.wants) {
      if (want.at < expired) this.wants.delete(tab);
      else for (const item of want.items) all.add(item);
    }
    return all;
  }
}
