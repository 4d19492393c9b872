import type { ModelUpdate } from '@plant/shared-schema';

export type ChangeListener = (accountId: string, updates: readonly ModelUpdate[]) => void;

/**
 * Committed model updates, in commit order, for whoever passes them on (the broker bridge). It is
 * told only after the transaction committed: the log is the truth, this is the fast path.
 */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => undefined) {}

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
