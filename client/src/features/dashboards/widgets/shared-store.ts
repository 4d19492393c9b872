/*
 * Subscriptions shared by key (issue 31 item 2: one read per stream and range, shared by the
 * widgets that show it). The first consumer of a key opens it, the others get its latest value;
 * the last one leaving closes it a moment later (a widget re-mounted, a range switched back and
 * forth, React's double effects in development reuse the open one). Pure of React and of the
 * worker: `open` is given, so the sharing is unit-tested.
 */

/** Closes a subscription (the worker's unsubscribe). */
export type Close = () => void;

interface Entry {
  value: unknown;
  /** Bumped on every value: snapshots compare it, not the values. */
  version: number;
  readonly listeners: Set<() => void>;
  close: Close | undefined;
  closeTimer: ReturnType<typeof setTimeout> | undefined;
}

export class SharedStore {
  private readonly entries = new Map<string, Entry>();
  /** How many subscriptions were opened in all (tests read it). */
  opened = 0;

  constructor(
    private readonly open: (key: string, onValue: (value: unknown) => void) => Close,
    private readonly lingerMs = 2_000,
  ) {}

  /**
   * Opens a key ahead of its followers (a widget rendering, before its effects subscribe): the
   * read starts a frame sooner. Nobody following it within the linger, it closes.
   */
  touch(key: string): void {
    if (this.entries.has(key)) return;
    const entry = this.openEntry(key);
    entry.closeTimer = setTimeout(() => this.closeIdle(key, entry), this.lingerMs);
  }

  private closeIdle(key: string, entry: Entry): void {
    if (entry.listeners.size > 0 || this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    entry.close?.();
  }

  /** Follows a key: opens it when nobody does yet. Answers the way to stop following. */
  follow(key: string, listener: () => void): () => void {
    const entry = this.entries.get(key) ?? this.openEntry(key);
    clearTimeout(entry.closeTimer);
    entry.closeTimer = undefined;
    entry.listeners.add(listener);
    const held = entry;
    return () => {
      held.listeners.delete(listener);
      if (held.listeners.size > 0 || held.closeTimer !== undefined) return;
      held.closeTimer = setTimeout(() => this.closeIdle(key, held), this.lingerMs);
    };
  }

  private openEntry(key: string): Entry {
    const made: Entry = {
      value: undefined,
      version: 0,
      listeners: new Set(),
      close: undefined,
      closeTimer: undefined,
    };
    this.entries.set(key, made);
    this.opened += 1;
    made.close = this.open(key, (value) => {
      if (this.entries.get(key) !== made) return;
      made.value = value;
      made.version += 1;
      for (const l of [...made.listeners]) l();
    });
    return made;
  }

  /** A key's latest value (undefined before its first) and its version. */
  get(key: string): { readonly value: unknown; readonly version: number } {
    const entry = this.entries.get(key);
    return entry === undefined ? { value: undefined, version: -1 } : entry;
  }

  /** How many keys are open now. */
  get size(): number {
    return this.entries.size;
  }
}
