import type { TcpProxy } from '../../sync-worker/src/testing/tcp-proxy';
import type { Draw } from './fault-random';
import type { FaultServer } from './fault-server';
import type { FaultTab } from './fault-tab';

/**
 * The fault schedule of one run of the fault suite (issue 38 item 4), drawn from its seed before
 * anything runs: steps one after another, each a fault on the browsers' path to the server
 * (latency, reordering, a partition that heals or ends in resets, resets, refused connections,
 * a request cut after so many bytes), the agent's uplink cut, or the server killed (SIGKILL) in
 * the middle of a write and started again on its DATA_DIR and port. Every step ends its own
 * fault (a cut stays armed until it fires or the run heals), with a quiet gap before the next.
 *
 * The waits here are the schedule itself (how long a partition lasts), not waits for a result.
 */

export const FAULT_KINDS = [
  'latency',
  'jitter',
  'blackhole',
  'reset',
  'refuse',
  'cut',
  'uplink-cut',
  'kill',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

type KillMode = 'after-commit' | 'while-sending';

type Step =
  | { readonly kind: 'latency'; readonly ms: number; readonly latency: number }
  | { readonly kind: 'jitter'; readonly ms: number; readonly jitter: number }
  | { readonly kind: 'blackhole'; readonly ms: number; readonly thenReset: boolean }
  | { readonly kind: 'reset'; readonly ms: number }
  | { readonly kind: 'refuse'; readonly ms: number }
  | { readonly kind: 'cut'; readonly ms: number; readonly bytes: number }
  | { readonly kind: 'uplink-cut'; readonly ms: number; readonly partition: boolean }
  | {
      readonly kind: 'kill';
      readonly mode: KillMode;
      readonly latency: number;
      readonly downMs: number;
    };

export interface FaultTargets {
  /** The browsers' path to the server (the page server's API proxy goes through it). */
  readonly net: TcpProxy;
  /** The gateway agent's uplink. */
  readonly uplink: TcpProxy;
  readonly server: FaultServer;
  readonly tabs: readonly FaultTab[];
  readonly accountId: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest a kill waits for a write in flight before it kills anyway. */
const KILL_WAIT_MS = 8_000;

export class FaultSchedule {
  readonly steps: readonly Step[];
  readonly counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  /** What each kill met (for the report): its mode and whether a write was in flight. */
  readonly kills: string[] = [];
  private stopped = false;

  constructor(
    private readonly targets: FaultTargets,
    draw: Draw,
    /** The proxy's jitter draws (a stream of its own: it draws per chunk). */
    private readonly jitterRandom: () => number,
    length: number,
  ) {
    const kinds: FaultKind[] = Array.from({ length }, () =>
      draw.weighted({ latency: 2, jitter: 2, blackhole: 2, reset: 2, refuse: 2, cut: 2 }),
    );
    // At least one kill and one uplink cut per run, neither first nor last; sometimes a second
    // kill.
    const at = (kind: FaultKind) =>
      kinds.splice(draw.int(1, Math.max(1, kinds.length - 1)), 0, kind);
    at('kill');
    at('uplink-cut');
    if (draw.chance(0.3)) at('kill');
    this.steps = kinds.map((kind) => stepOf(kind, draw));
  }

  /** Runs the steps in order, a quiet gap after each, until done or stopped. */
  async run(gap: () => number): Promise<void> {
    for (const step of this.steps) {
      if (this.stopped) return;
      await this.apply(step);
      this.counts[step.kind] += 1;
      await sleep(gap());
    }
  }

  /** No further step (the run ended early): a kill under way starts no server again. */
  stop(): void {
    this.stopped = true;
  }

  private async apply(step: Step): Promise<void> {
    const { net, uplink } = this.targets;
    switch (step.kind) {
      case 'latency':
        net.setLatency(step.latency);
        await sleep(step.ms);
        net.setLatency(0);
        return;
      case 'jitter':
        net.setJitter(step.jitter, this.jitterRandom);
        await sleep(step.ms);
        net.setJitter(0);
        return;
      case 'blackhole':
        net.blackhole(true);
        await sleep(step.ms);
        if (step.thenReset) net.resetAll();
        net.blackhole(false);
        return;
      case 'reset':
        net.resetAll();
        await sleep(step.ms);
        return;
      case 'refuse':
        net.refuse(true);
        net.resetAll();
        await sleep(step.ms);
        net.refuse(false);
        return;
      case 'cut':
        net.resetAfterUpstreamBytes(step.bytes);
        await sleep(step.ms);
        return;
      case 'uplink-cut':
        if (step.partition) uplink.blackhole(true);
        else {
          uplink.refuse(true);
          uplink.resetAll();
        }
        await sleep(step.ms);
        if (step.partition) {
          uplink.resetAll();
          uplink.blackhole(false);
        } else uplink.refuse(false);
        return;
      case 'kill':
        await this.kill(step);
        return;
      default: {
        const unknown: never = step;
        throw new Error(`unknown fault ${JSON.stringify(unknown)}`);
      }
    }
  }

  /**
   * SIGKILL with a write in flight, then a start on the same DATA_DIR and port:
   * - after-commit: once a batch of the tabs' writes is committed (its mutation ids are in the
   *   database) while the proxy still holds its answer (the latency): the tab never hears it and
   *   sends the batch again to the new process, which must answer it, not apply it twice;
   * - while-sending: as soon as a tab shows a batch on the wire: it may be in the proxy, in the
   *   server's transaction, or its answer on the way back.
   */
  private async kill(step: Extract<Step, { kind: 'kill' }>): Promise<void> {
    const { net, server, tabs, accountId } = this.targets;
    net.setLatency(step.latency);
    const until = Date.now() + KILL_WAIT_MS;
    let met = false;
    if (step.mode === 'after-commit') {
      const applied = () =>
        server.platform(
          (db) =>
            db
              .prepare('select count(*) from applied_mutations where account_id = ?')
              .pluck()
              .get(accountId) as number,
        );
      const before = applied();
      while (Date.now() < until && !this.stopped && !(met = applied() > before)) await sleep(10);
    } else {
      const sending = async () =>
        (await Promise.all(tabs.map((t) => t.writes()))).some((w) =>
          w.some((e) => e.state === 'sending'),
        );
      while (Date.now() < until && !this.stopped && !(met = await sending())) await sleep(20);
    }
    await server.kill();
    // What the kill left: writes the dead process committed whose answers never came (sent
    // again, they must be answered, not applied twice), and writes still to be applied.
    const open = (await Promise.all(tabs.map((t) => t.writes())))
      .flat()
      .filter((w) => w.state === 'sending' || w.state === 'pending');
    const committed = server.applied(
      accountId,
      open.map((w) => w.mutationId),
    ).size;
    this.kills.push(
      `${step.mode}${met ? '' : ' (no write in flight met)'}: ${committed} committed unanswered, ${open.length - committed} unsent`,
    );
    net.setLatency(0);
    await sleep(step.downMs);
    if (!this.stopped) await server.restart();
  }

  /** Every fault off (an armed cut disarmed), for the run's end. */
  heal(): void {
    const { net, uplink } = this.targets;
    for (const proxy of [net, uplink]) {
      proxy.setLatency(0);
      proxy.setJitter(0);
      proxy.blackhole(false);
      proxy.refuse(false);
      proxy.resetAfterUpstreamBytes(Number.MAX_SAFE_INTEGER);
    }
  }

  /** The plan in one line per step (for a failure's report). */
  describe(): string {
    return this.steps.map((s) => JSON.stringify(s)).join('\n');
  }
}

function stepOf(kind: FaultKind, draw: Draw): Step {
  switch (kind) {
    case 'latency':
      return { kind, ms: draw.int(500, 2_500), latency: draw.int(20, 400) };
    case 'jitter':
      return { kind, ms: draw.int(1_000, 3_000), jitter: draw.int(20, 300) };
    case 'blackhole':
      return { kind, ms: draw.int(300, 2_500), thenReset: draw.chance(0.5) };
    case 'reset':
      return { kind, ms: draw.int(100, 800) };
    case 'refuse':
      return { kind, ms: draw.int(500, 3_000) };
    case 'cut':
      return { kind, ms: draw.int(300, 1_500), bytes: draw.int(100, 64 * 1024) };
    case 'uplink-cut':
      return { kind, ms: draw.int(1_500, 4_000), partition: draw.chance(0.5) };
    case 'kill': {
      const mode = draw.pick<KillMode>(['after-commit', 'while-sending']);
      return {
        kind,
        mode,
        latency: mode === 'after-commit' ? draw.int(300, 600) : draw.int(50, 250),
        downMs: draw.int(0, 1_500),
      };
    }
    default: {
      const unknown: never = kind;
      throw new Error(`unknown fault ${String(unknown)}`);
    }
  }
}
