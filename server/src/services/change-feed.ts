import type { ModelUpdate } from '@plant/shared-schema';

export type ChangeListener = (accountId: string, updates: readonly ModelUpdate[]) => void;

/** Model types changed in an account by a write committed in another server process. */
export type ElsewhereListener = (accountId: string, types: ReadonlySet<string>) => void;

/**
 * Committed model updates, in commit order, for whoever passes them on (the broker bridge). It is
 * told only after the transaction committed: the log is the truth, this is the fast path.
 */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  private readonly elsewhere = new Set<ElsewhereListener>();
  private readonly access = new Set<(accountId: string) => void>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => undefined) {}

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Changes committed by other processes (DESIGN.md §11), as the types they touched: for caches
   * kept from models. What browsers get of them comes through the shared broker instead.
   */
  subscribeElsewhere(listener: ElsewhereListener): () => void {
    this.elsewhere.add(listener);
    return () => this.elsewhere.delete(listener);
  }

  publishElsewhere(accountId: string, types: ReadonlySet<string>): void {
    for (const listener of this.elsewhere) {
      try {
        listener(accountId, types);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  /**
   * Who may see what in the account changed (roles, their permissions, assets or fields;
   * committed): the broker re-checks its browsers now and tells those whose access moved.
   */
  subscribeAccess(listener: (accountId: string) => void): () => void {
    this.access.add(listener);
    return () => this.access.delete(listener);
  }

  accessChanged(accountId: string): void {
    for (const listener of this.access) {
      try {
        listener(accountId);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  publish(accountId: string, updates: readonly ModelUpdate[]): void {
    if (updates.length === 0) return;
    // The write has committed: a listener that fails must not turn it into an error answer.
    for (const listener of this.listeners) {
      try {
        listener(accountId, updates);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
