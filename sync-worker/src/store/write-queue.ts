/**
 * Runs tasks one after the other (STYLE.md: writes to the local store go through one queue, so
 * bulk writes never interleave). Every RxDB write reads first, so two interleaved read-compute-
 * write tasks could each compute from a state the other is replacing; one at a time they cannot.
 * A failing task rejects its own promise and does not stop the tasks after it.
 */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    this.waiting++;
    const result = this.tail.then(task).finally(() => {
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
