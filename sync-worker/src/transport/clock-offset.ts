/**
 * How far the server's clock is ahead of this device's (ms; negative: behind), measured from the
 * server's time on every API answer (SERVER_TIME_HEADER). A sample is taken halfway through its
 * round trip, so its error is at most half the round trip: of the recent samples, the one with the
 * shortest round trip wins, and a sample older than `keepMs` gives way to any newer one (the
 * device's clock may have been set since).
 */
export class ClockOffset {
  private best: { offset: number; rtt: number; at: number } | null = null;

  constructor(private readonly keepMs = 10 * 60_000) {}

  /** The current estimate (0 before any answer). */
  get offset(): number {
    return this.best?.offset ?? 0;
  }

  /**
   * One answer: sent and received on this device's clock, the server's time from its header.
   * Answers whether the estimate moved.
   */
  sample(sentAt: number, receivedAt: number, serverTime: number): boolean {
    if (!Number.isFinite(serverTime) || receivedAt < sentAt) return false;
    const rtt = receivedAt - sentAt;
    const offset = serverTime - (sentAt + receivedAt) / 2;
    const best = this.best;
    if (best !== null && receivedAt - best.at < this.keepMs && rtt > best.rtt) return false;
    this.best = { offset: Math.round(offset), rtt, at: receivedAt };
    return best === null || Math.round(offset) !== best.offset;
  }
}
