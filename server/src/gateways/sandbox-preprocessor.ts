import { createHash } from 'node:crypto';
import type { Logger } from '../logger';
import {
  CODE_NOT_RUN,
  CODE_TOO_MUCH_MEMORY,
  CODE_TOO_SLOW,
  createSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../sandbox/quickjs-sandbox';
import { codeProblem, type PointValue } from '@plant/shared-schema';
import type { PreprocessOutcome, Preprocessor } from './ingest';

export interface SandboxPreprocessorOptions {
  /** Limits of a sandbox of its own; without them, the process's shared sandbox is used. */
  readonly sandbox?: SandboxOptions;
  /** Clock of the warning's rate limit (ms). */
  readonly now?: () => number;
}

/** How many codes' rule checks are remembered. */
const CHECKED_CODES = 256;
/** A code's limit warnings: at most one per this period. */
const WARN_EVERY_MS = 60_000;
/** Outcomes that are the code's fault in a way operators should see (and the sandbox's own). */
const WARNED = new Set<string>([CODE_TOO_SLOW, CODE_TOO_MUCH_MEMORY, CODE_NOT_RUN]);

/**
 * Pre-processing (spec 001 §5) in the QuickJS sandbox: code that breaks the rules answers
 * "This code is not valid" for every value without running; blank code keeps the values as they
 * are. Code that runs out of time or memory is logged at warn, once per code per minute.
 *
 * Without options, all preprocessors of the process share one sandbox (two worker threads):
 * `run` is synchronous, so they never use it at the same time. Its threads do not keep the
 * process alive; `dispose` releases it (the last one stops it).
 */
export async function sandboxPreprocessor(
  log: Logger,
  options: SandboxPreprocessorOptions = {},
): Promise<Preprocessor & { dispose(): void }> {
  const lease =
    options.sandbox === undefined ? await shareSandbox() : await ownSandbox(options.sandbox);
  const now = options.now ?? Date.now;
  const checked = new Map<string, string | undefined>();
  const warned = new Map<string, number>();
  let disposed = false;

  const check = (code: string): string | undefined => {
    if (checked.has(code)) {
      const problem = checked.get(code);
      // Most recently used last.
      checked.delete(code);
      checked.set(code, problem);
      return problem;
    }
    const problem = codeProblem(code);
    checked.set(code, problem);
    if (checked.size > CHECKED_CODES) checked.delete(checked.keys().next().value ?? '');
    return problem;
  };

  const warn = (code: string, error: string, values: number) => {
    const key = createHash('sha256').update(code).digest('hex').slice(0, 12);
    const at = now();
    const last = warned.get(key);
    if (last !== undefined && at - last < WARN_EVERY_MS) return;
    if (warned.size >= 1_000) {
      for (const [k, t] of warned) if (at - t >= WARN_EVERY_MS) warned.delete(k);
    }
    warned.set(key, at);
    log.warn('pre-processing code stopped', { code: key, chars: code.length, values, error });
  };

  /** What the rules answer without running the code, if they answer. */
  const before = (
    code: string,
    inputs: readonly { value: PointValue }[],
  ): PreprocessOutcome[] | undefined => {
    if (inputs.length === 0) return [];
    if (code.trim() === '') return inputs.map((i) => ({ kind: 'value', value: i.value }));
    const problem = check(code);
    if (problem !== undefined) return inputs.map(() => ({ kind: 'error', error: problem }));
    if (disposed) return inputs.map(() => ({ kind: 'error', error: CODE_NOT_RUN }));
    return undefined;
  };
  const after = (code: string, values: number, outcomes: PreprocessOutcome[]) => {
    const stopped = outcomes.find((o) => o.kind === 'error' && WARNED.has(o.error));
    if (stopped?.kind === 'error') warn(code, stopped.error, values);
    return outcomes;
  };

  return {
    run(code, inputs): readonly PreprocessOutcome[] {
      return before(code, inputs) ?? after(code, inputs.length, lease.sandbox.run(code, inputs));
    },
    async runAsync(code, inputs): Promise<readonly PreprocessOutcome[]> {
      return (
        before(code, inputs) ??
        after(code, inputs.length, await lease.sandbox.runAsync(code, inputs))
      );
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      lease.release();
    },
  };
}

interface Lease {
  readonly sandbox: Sandbox;
  release(): void;
}

async function ownSandbox(options: SandboxOptions): Promise<Lease> {
  const sandbox = await createSandbox(options);
  return { sandbox, release: () => sandbox.dispose() };
}

/**
 * How long the shared sandbox outlives its last user: a server started again in the same process
 * (the tests start hundreds, one after another) takes it over instead of loading QuickJS into new
 * threads (a third of a second of CPU each time). Its threads never keep the process alive.
 */
const SHARED_SANDBOX_LINGER_MS = 10_000;

let shared:
  | {
      readonly sandbox: Promise<Sandbox>;
      users: number;
      lingering: NodeJS.Timeout | undefined;
    }
  | undefined;

let sharedSandboxesMade = 0;

/** How many shared sandboxes this process made (for tests: a restarted server reuses one). */
export function sharedSandboxCount(): number {
  return sharedSandboxesMade;
}

async function shareSandbox(): Promise<Lease> {
  if (shared === undefined) {
    sharedSandboxesMade++;
    const created = { sandbox: createSandbox(), users: 0, lingering: undefined };
    shared = created;
    created.sandbox.catch(() => {
      if (shared === created) shared = undefined;
    });
  }
  const entry = shared;
  clearTimeout(entry.lingering);
  entry.lingering = undefined;
  entry.users++;
  let sandbox: Sandbox;
  try {
    sandbox = await entry.sandbox;
  } catch (err) {
    entry.users--;
    throw err;
  }
  let released = false;
  return {
    sandbox,
    release: () => {
      if (released) return;
      released = true;
      entry.users--;
      if (entry.users === 0 && shared === entry) {
        entry.lingering = setTimeout(() => {
          if (entry.users > 0 || shared !== entry) return;
          shared = undefined;
          sandbox.dispose();
        }, SHARED_SANDBOX_LINGER_MS);
        entry.lingering.unref();
      }
    },
  };
}
