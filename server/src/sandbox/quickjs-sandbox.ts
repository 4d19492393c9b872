import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from 'node:worker_threads';
import {
  CODE_NOT_VALID,
  CODE_RUN_TEXTS,
  GATEWAY_LIMITS,
  type PointValue,
} from '@plant/shared-schema';

/** Texts of a value's refusal (shown to users; spec 001 §5 gives the first). */
export { CODE_NOT_VALID };
export const CODE_TOO_SLOW = CODE_RUN_TEXTS.tooSlow;
export const CODE_TOO_MUCH_MEMORY = CODE_RUN_TEXTS.tooMuchMemory;
export const CODE_TOO_DEEP = CODE_RUN_TEXTS.tooDeep;
export const CODE_NO_VALID_VALUE = CODE_RUN_TEXTS.noValidValue;
export const CODE_TEXT_TOO_LONG = CODE_RUN_TEXTS.textTooLong;
/** Followed by the error the code threw, e.g. "ReferenceError: x is not defined". */
export const CODE_FAILED = CODE_RUN_TEXTS.failed;
export const CODE_NOT_RUN = CODE_RUN_TEXTS.notRun;

export interface SandboxInput {
  readonly value: PointValue;
  readonly ts: number;
  readonly previous: PointValue | null;
}

export type SandboxOutcome =
  | { readonly kind: 'value'; readonly value: PointValue }
  | { readonly kind: 'dropped' }
  | { readonly kind: 'error'; readonly error: string };

export interface SandboxOptions {
  /** Time for one call, before its values (ms). */
  readonly timeLimitMs?: number;
  /** Time added per value of the call (ms). */
  readonly timeLimitPerValueMs?: number;
  /** The most one call may take, whatever its size (ms). */
  readonly maxTimeLimitMs?: number;
  /**
   * How much longer than its limit a call may block before its thread is killed (ms): QuickJS
   * looks at the clock only now and then, and one built-in call (a search through a long text)
   * can take long.
   */
  readonly graceMs?: number;
  /** What the code may allocate, beyond the 16 MiB QuickJS itself starts with (bytes). */
  readonly memoryLimitBytes?: number;
  /** QuickJS's stack limit (bytes). */
  readonly stackLimitBytes?: number;
  /** Longest text the code may return (characters). */
  readonly textLimit?: number;
  /** How long a call may wait for a new thread after one was killed (ms). */
  readonly startupTimeoutMs?: number;
  /** Told when a thread was killed: the code ran past its limit, or the thread failed. */
  readonly onRestart?: (reason: 'timeout' | 'crash') => void;
}

export interface Sandbox {
  /** Runs `code` over the inputs, in order; one outcome per input. Blocks until done. */
  run(code: string, inputs: readonly SandboxInput[]): SandboxOutcome[];
  /**
   * The same on a thread of its own, without blocking the caller: for a request (the code
   * trial), during which the server keeps answering others. One call at a time; past
   * {@link MAX_WAITING_CALLS} waiting, a call answers CODE_NOT_RUN at once.
   */
  runAsync(code: string, inputs: readonly SandboxInput[]): Promise<SandboxOutcome[]>;
  /** Stops its threads. */
  dispose(): void;
}

const MIB = 1024 * 1024;
/** Asynchronous calls that may wait for the one running (each holds a request open). */
export const MAX_WAITING_CALLS = 16;
/** The QuickJS build's fixed start (its image, stack and first heap). */
const BASE_MEMORY_BYTES = 16 * MIB;

const DEFAULTS = {
  timeLimitMs: 50,
  timeLimitPerValueMs: 0.05,
  maxTimeLimitMs: 500,
  graceMs: 250,
  memoryLimitBytes: 16 * MIB,
  stackLimitBytes: 128 * 1024,
  textLimit: GATEWAY_LIMITS.textValueChars,
  startupTimeoutMs: 5_000,
} as const;

/** How long `start()` waits for the first thread (ms). */
const FIRST_START_TIMEOUT_MS = 60_000;

/** The time limit of one call over `count` values (ms). */
export function timeLimitFor(count: number, options: SandboxOptions = {}): number {
  const base = options.timeLimitMs ?? DEFAULTS.timeLimitMs;
  const perValue = options.timeLimitPerValueMs ?? DEFAULTS.timeLimitPerValueMs;
  const max = options.maxTimeLimitMs ?? DEFAULTS.maxTimeLimitMs;
  return Math.min(max, base + perValue * count);
}

/**
 * A sandbox for pre-processing code (DESIGN.md §8): QuickJS compiled to WebAssembly, in a worker
 * thread, so that the host can stop code that QuickJS's own interrupt check does not stop in time.
 *
 * Each call gets a fresh QuickJS runtime and context (one stream's code cannot see another's
 * state), with a deadline, a stack limit and a fixed memory. The call blocks the caller (the
 * interface is synchronous) until the thread answers or the deadline plus `graceMs` passes; then
 * the thread is killed and a warm spare takes over (a new spare starts in the background).
 *
 * Limits, by default: 50 ms + 0.05 ms per value, at most 500 ms per call (inside QuickJS), the
 * thread killed 250 ms after that; 16 MiB for the code's allocations (the WebAssembly memory is
 * fixed at 32 MiB); QuickJS stack 128 KiB, about 700 nested calls (QuickJS measures its stack
 * loosely: some built-ins, such as the parser of `eval`, can exhaust the thread's own stack
 * first; that is caught too, and the thread is retired).
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = new WorkerSandbox(options);
  await sandbox.start();
  return sandbox;
}

type WireOutcome = readonly ['v', PointValue] | readonly ['d'] | readonly ['e', string, string?];
type Reply =
  | { readonly seq: number; readonly outcomes: readonly WireOutcome[] }
  | { readonly seq: number; readonly crashed: 'stack' | 'crash' };

const REASONS: Record<string, string> = {
  invalid: CODE_NOT_VALID,
  timeout: CODE_TOO_SLOW,
  memory: CODE_TOO_MUCH_MEMORY,
  stack: CODE_TOO_DEEP,
  result: CODE_NO_VALID_VALUE,
  text: CODE_TEXT_TOO_LONG,
};

class WorkerSandbox implements Sandbox {
  private active: SandboxThread | undefined;
  private spare: SandboxThread | undefined;
  /** The thread of `runAsync`, started at its first call; never used by `run`. */
  private trial: SandboxThread | undefined;
  /** The end of the last asynchronous call queued, and how many wait or run. */
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private seq = 0;
  private disposed = false;
  private readonly memoryBytes: number;

  constructor(private readonly options: SandboxOptions) {
    this.memoryBytes = BASE_MEMORY_BYTES + (options.memoryLimitBytes ?? DEFAULTS.memoryLimitBytes);
  }

  async start(): Promise<void> {
    const first = new SandboxThread(this.memoryBytes);
    this.active = first;
    try {
      // The server's start waits longer for its first thread than a call waits for a new one: on
      // a busy machine (a test run beside others) loading QuickJS took more than 5 s, and the
      // server failed to start where it would have run fine a moment later.
      await first.started(FIRST_START_TIMEOUT_MS);
    } catch (err) {
      first.stop();
      throw err;
    }
    this.spare = new SandboxThread(this.memoryBytes);
  }

  /** What a thread is asked to run: the code, its inputs and this sandbox's limits. */
  private request(seq: number, code: string, inputs: readonly unknown[], timeLimitMs: number) {
    return {
      seq,
      code,
      inputs,
      timeLimitMs,
      memoryLimitBytes: this.options.memoryLimitBytes ?? DEFAULTS.memoryLimitBytes,
      stackLimitBytes: this.options.stackLimitBytes ?? DEFAULTS.stackLimitBytes,
      textLimit: this.options.textLimit ?? DEFAULTS.textLimit,
    };
  }

  run(code: string, inputs: readonly SandboxInput[]): SandboxOutcome[] {
    if (this.disposed) throw new Error('The sandbox is disposed.');
    if (inputs.length === 0) return [];
    const all = (error: string): SandboxOutcome[] => inputs.map(() => ({ kind: 'error', error }));
    const thread = this.thread();
    if (thread === undefined) return all(CODE_NOT_RUN);
    const seq = ++this.seq;
    const timeLimitMs = timeLimitFor(inputs.length, this.options);
    thread.port.postMessage(this.request(seq, code, inputs, timeLimitMs));
    const reply = thread.reply(seq, timeLimitMs + (this.options.graceMs ?? DEFAULTS.graceMs));
    if (reply === undefined) {
      this.retire(thread, 'timeout');
      return all(CODE_TOO_SLOW);
    }
    if ('crashed' in reply) {
      this.retire(thread, 'crash');
      return all(reply.crashed === 'stack' ? CODE_TOO_DEEP : CODE_NOT_RUN);
    }
    return inputs.map((_, i) => outcomeOf(reply.outcomes[i]));
  }

  runAsync(code: string, inputs: readonly SandboxInput[]): Promise<SandboxOutcome[]> {
    if (this.disposed) return Promise.reject(new Error('The sandbox is disposed.'));
    if (inputs.length === 0) return Promise.resolve([]);
    if (this.queued > MAX_WAITING_CALLS) {
      return Promise.resolve(inputs.map(() => ({ kind: 'error', error: CODE_NOT_RUN })));
    }
    this.queued++;
    const call = this.queue.then(() => this.runOnTrial(code, inputs));
    this.queue = call.catch(() => undefined);
    return call.finally(() => {
      this.queued--;
    });
  }

  dispose(): void {
    this.disposed = true;
    this.active?.stop();
    this.spare?.stop();
    this.trial?.stop();
    this.active = undefined;
    this.spare = undefined;
    this.trial = undefined;
  }

  /**
   * One asynchronous call: the request posted to the trial thread, the answer awaited as a
   * message (the caller's event loop runs meanwhile); past its limit and grace the thread is
   * killed, as in `run`, and the next call starts a new one.
   */
  private async runOnTrial(code: string, inputs: readonly SandboxInput[]) {
    const all = (error: string): SandboxOutcome[] => inputs.map(() => ({ kind: 'error', error }));
    if (this.disposed) return all(CODE_NOT_RUN);
    if (this.trial === undefined || this.trial.dead) {
      this.trial = new SandboxThread(this.memoryBytes);
    }
    const thread = this.trial;
    try {
      await thread.started(this.options.startupTimeoutMs ?? DEFAULTS.startupTimeoutMs);
    } catch {
      this.retireTrial(thread, 'crash');
      return all(CODE_NOT_RUN);
    }
    const seq = ++this.seq;
    const timeLimitMs = timeLimitFor(inputs.length, this.options);
    const answer = thread.replyAsync(seq, timeLimitMs + (this.options.graceMs ?? DEFAULTS.graceMs));
    thread.port.postMessage(this.request(seq, code, inputs, timeLimitMs));
    const reply = await answer;
    if (reply === undefined) {
      this.retireTrial(thread, thread.dead ? 'crash' : 'timeout');
      return all(CODE_TOO_SLOW);
    }
    if ('crashed' in reply) {
      this.retireTrial(thread, 'crash');
      return all(reply.crashed === 'stack' ? CODE_TOO_DEEP : CODE_NOT_RUN);
    }
    return inputs.map((_, i) => outcomeOf(reply.outcomes[i]));
  }

  private retireTrial(thread: SandboxThread, reason: 'timeout' | 'crash'): void {
    thread.stop();
    if (this.trial === thread) this.trial = undefined;
    this.options.onRestart?.(reason);
  }

  /** A ready thread (waiting for a starting one), with a spare starting behind it. */
  private thread(): SandboxThread | undefined {
    if (this.active === undefined || this.active.dead) {
      this.active = this.spare !== undefined && !this.spare.dead ? this.spare : undefined;
      this.spare = undefined;
      this.active ??= new SandboxThread(this.memoryBytes);
    }
    if (this.spare === undefined || this.spare.dead) {
      this.spare = new SandboxThread(this.memoryBytes);
    }
    const active = this.active;
    if (!active.waitReady(this.options.startupTimeoutMs ?? DEFAULTS.startupTimeoutMs)) {
      this.retire(active, 'crash');
      return undefined;
    }
    return active;
  }

  private retire(thread: SandboxThread, reason: 'timeout' | 'crash'): void {
    thread.stop();
    if (this.active === thread) this.active = undefined;
    this.options.onRestart?.(reason);
  }
}

/** One worker thread running quickjs-worker.mjs, and its channel. */
class SandboxThread {
  readonly port: MessagePort;
  private readonly worker: Worker;
  /** [0]: seq of the last reply; [1]: 1 once ready. */
  private readonly signal = new Int32Array(new SharedArrayBuffer(8));
  private exited = false;
  private stopped = false;
  /** Settles when QuickJS is loaded (resolves) or the thread fails first (rejects). */
  private readonly ready: Promise<void>;

  constructor(memoryBytes: number) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(new URL('./quickjs-worker.mjs', import.meta.url), {
      workerData: { port: port2, signal: this.signal, memoryBytes },
      transferList: [port2],
      // Plain JavaScript: no loaders of the parent. Its own heap holds only a call's values.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    this.port.postMessage({ ping: true });
    // Never keeps the process alive; failures only mark it dead (the next call takes another).
    this.worker.unref();
    this.worker.on('error', () => {
      this.exited = true;
    });
    this.worker.on('exit', () => {
      this.exited = true;
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if (message !== 'ready') return;
        done();
        resolve();
      };
      const onError = (err: unknown) => {
        done();
        reject(err instanceof Error ? err : new Error(String(err)));
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`The sandbox stopped while starting (exit code ${code}).`));
      };
      const done = () => {
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        this.worker.off('exit', onExit);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.on('exit', onExit);
    });
    // Whoever asks (started) hears of a failure; unasked, it is only the thread marked dead.
    this.ready.catch(() => undefined);
  }

  get dead(): boolean {
    return this.exited || this.stopped;
  }

  /** Resolves once QuickJS is loaded; rejects when the thread fails first or takes too long. */
  async started(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.ready,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('The sandbox did not start in time.')),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Blocks until the thread is ready; false when it is not within `timeoutMs`. */
  waitReady(timeoutMs: number): boolean {
    const until = performance.now() + timeoutMs;
    while (Atomics.load(this.signal, 1) !== 1) {
      const left = until - performance.now();
      if (left <= 0 || this.dead) return false;
      // In slices, so that a thread that died while starting is noticed.
      Atomics.wait(this.signal, 1, 0, Math.min(left, 50));
    }
    return !this.dead;
  }

  /** Blocks until the reply to `seq`; undefined after `timeoutMs`. */
  reply(seq: number, timeoutMs: number): Reply | undefined {
    const until = performance.now() + timeoutMs;
    for (;;) {
      const last = Atomics.load(this.signal, 0);
      if (last === seq) break;
      const left = until - performance.now();
      if (left <= 0) return undefined;
      Atomics.wait(this.signal, 0, last, left);
    }
    // The reply is posted before the signal: it is there (a few tries, to be safe).
    for (let attempt = 0; attempt < 100; attempt++) {
      const received = receiveMessageOnPort(this.port) as { message: Reply } | undefined;
      if (received === undefined) {
        Atomics.wait(this.signal, 1, 1, 1);
        continue;
      }
      if (received.message.seq === seq) return received.message;
    }
    return undefined;
  }

  /**
   * The reply to `seq` as a message, without blocking; undefined after `timeoutMs` or when the
   * thread ends first. Only for a thread that `reply` never reads (the trial's own).
   */
  replyAsync(seq: number, timeoutMs: number): Promise<Reply | undefined> {
    return new Promise((resolve) => {
      const onMessage = (message: Reply) => {
        if (message.seq !== seq) return;
        done(message);
      };
      const onExit = () => done(undefined);
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (reply: Reply | undefined) => {
        clearTimeout(timer);
        this.port.off('message', onMessage);
        this.worker.off('exit', onExit);
        resolve(reply);
      };
      this.port.on('message', onMessage);
      this.worker.on('exit', onExit);
    });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.port.close();
    void this.worker.terminate();
  }
}

function outcomeOf(wire: WireOutcome | undefined): SandboxOutcome {
  if (wire === undefined) return { kind: 'error', error: CODE_NOT_RUN };
  switch (wire[0]) {
    case 'v':
      return { kind: 'value', value: wire[1] };
    case 'd':
      return { kind: 'dropped' };
    case 'e':
      if (wire[1] === 'thrown') return { kind: 'error', error: `${CODE_FAILED}${clean(wire[2])}` };
      return { kind: 'error', error: REASONS[wire[1]] ?? CODE_NOT_RUN };
    default: {
      const never: never = wire;
      return never;
    }
  }
}

/** The code's error message, on one line, without control characters. */
function clean(message: string | undefined): string {
  const text = Array.from(message ?? '', (c) => (c < ' ' || c === '\u007f' ? ' ' : c))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, 200);
  return text === '' ? 'Error' : text;
}
