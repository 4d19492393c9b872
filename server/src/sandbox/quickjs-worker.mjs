// The thread that runs pre-processing code in QuickJS (WebAssembly). Plain JavaScript: it is
// started as a worker thread, which loads it without the TypeScript tooling of its parent.
// The parent (quickjs-sandbox.ts) owns the protocol:
//   workerData: { port, signal: Int32Array (on a SharedArrayBuffer), memoryBytes }
//   request on port: { seq, code, inputs: [{ value, ts, previous }], timeLimitMs,
//                      memoryLimitBytes, stackLimitBytes, textLimit }
//   reply on port:   { seq, outcomes: [['v', value] | ['d'] | ['e', reason, message?]] }
//                  | { seq, crashed: 'stack' | 'crash' }  (this thread must not be used again)
//   request { ping: true }: answered by signal[1] = 1 (and 'ready' on parentPort).
//   signal[0] = seq of the last reply (Atomics.notify), signal[1] = 1 once ready.
// Reasons: invalid, timeout, memory, stack, result, text, thrown.
import { parentPort, workerData } from 'node:worker_threads';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';

const PAGE = 65_536;
/** The QuickJS build's own minimum memory (its image, stack and first heap). */
const BASE_PAGES = 256;

const { port, signal, memoryBytes } = workerData;
// A fixed maximum: QuickJS's own limit (setMemoryLimit) only bounds single allocations in this
// build (quickjs-emscripten issues #255, #271), so the WebAssembly memory is what caps the code.
const maximumPages = Math.max(BASE_PAGES, Math.ceil(memoryBytes / PAGE));
const memory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum: maximumPages });
const quickjs = await newQuickJSWASMModuleFromVariant(
  newVariant(releaseSync, { wasmMemory: memory }),
);

/**
 * Evaluated before the user's code, so it holds the original intrinsics: the source text of a
 * function, and a short description of a thrown value (reading only strings, never calling
 * conversions; getters of the thrown object may run, under the same time limit).
 */
const HELPERS = `(() => {
  const apply = Reflect.apply;
  const toSource = Function.prototype.toString;
  const describe = (e) => {
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const name = e.name;
        const message = e.message;
        return (typeof name === 'string' ? name : 'Error') + '\\n' +
          (typeof message === 'string' ? message : '');
      }
      return 'Error\\n' + (typeof e === 'string' || typeof e === 'number' ? '' + e : '');
    } catch (_) {
      return 'Error\\n';
    }
  };
  return [(f) => apply(toSource, f, []), describe];
})()`;

warmUp();
port.on('message', (request) => {
  if (request.ping) {
    // Ready once the port delivers: a worker's first message can wait behind its start-up.
    Atomics.store(signal, 1, 1);
    Atomics.notify(signal, 1);
    parentPort?.postMessage('ready');
    return;
  }
  let reply;
  try {
    reply = { seq: request.seq, outcomes: runBatch(request) };
  } catch (error) {
    // A host-side failure (the JavaScript stack ran out inside WebAssembly, or QuickJS aborted):
    // this module's state is unknown from here on, so the parent retires this thread.
    const stack = error instanceof RangeError && /call stack/i.test(String(error.message));
    reply = { seq: request.seq, crashed: stack ? 'stack' : 'crash' };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, request.seq);
  Atomics.notify(signal, 0);
});

/**
 * WebAssembly functions are compiled on their first call: a cold thread needs tens of ms for
 * its first batch, which would count against that batch's time limit. A few batches first.
 */
function warmUp() {
  const inputs = [
    { value: 1, ts: 0, previous: null },
    { value: 'on', ts: 1, previous: 1 },
    { value: true, ts: 2, previous: 'on' },
  ];
  const limits = { memoryLimitBytes: 16 * 1024 * 1024, stackLimitBytes: 128 * 1024 };
  for (const code of [
    'let $x = $value * 2; if ($x > 10) { return null; } return "" + $x + $ts + $previous;',
    'return typeof $value === "number" ? $value / 3 : $value;',
    'if ($value === 1) { throw new Error("x"); } return {};',
    'return $value +;',
  ]) {
    for (let round = 0; round < 3; round++) {
      runBatch({ seq: 0, code, inputs, timeLimitMs: 10_000, textLimit: 1_000, ...limits });
    }
  }
}

/** One call of the parent: a fresh runtime and context, the code compiled once, run per input. */
function runBatch(request) {
  // The deadline starts with the code (below), not with this thread's own set-up.
  const state = { interrupted: false, deadline: Infinity };
  const runtime = quickjs.newRuntime();
  let failed = true;
  let context;
  try {
    runtime.setMemoryLimit(request.memoryLimitBytes);
    runtime.setMaxStackSize(request.stackLimitBytes);
    runtime.setInterruptHandler(() => {
      if (Date.now() > state.deadline) state.interrupted = true;
      return state.interrupted;
    });
    context = runtime.newContext();
    const outcomes = runInContext(context, request, state);
    failed = false;
    return outcomes;
  } finally {
    // After a host failure the runtime may be half-way through something: leave it alone.
    if (!failed) {
      context?.dispose();
      runtime.dispose();
    }
  }
}

function runInContext(context, request, state) {
  const { inputs } = request;
  const outcomes = [];
  const fill = (reason) => {
    while (outcomes.length < inputs.length) outcomes.push(['e', reason]);
    return outcomes;
  };

  const helpers = context.unwrapResult(
    context.evalCode(HELPERS, 'sandbox.js', { type: 'global', strict: true }),
  );
  const sourceOf = context.getProp(helpers, 0);
  const describe = context.getProp(helpers, 1);
  helpers.dispose();
  state.deadline = Date.now() + request.timeLimitMs;
  let fn;
  try {
    // The code becomes the body of a strict function. Its source text is checked afterwards:
    // code that closes the function early (`} …; function x() {`) yields a function whose text
    // is shorter (or no function), and is refused. Whatever it did ran inside this throwaway
    // context only.
    const text = `function ($value, $ts, $previous) {\n"use strict";\n${request.code}\n}`;
    const compiled = context.evalCode(`(${text})`, 'preprocessing.js', {
      type: 'global',
      strict: true,
    });
    if (compiled.error) {
      const [, reason] = classify(context, describe, compiled.error, state);
      compiled.error.dispose();
      return fill(reason === 'timeout' || reason === 'memory' ? reason : 'invalid');
    }
    fn = compiled.value;
    if (context.typeof(fn) !== 'function' || !sourceIs(context, sourceOf, fn, text)) {
      return fill(state.interrupted ? 'timeout' : 'invalid');
    }

    for (const input of inputs) {
      if (state.interrupted || Date.now() > state.deadline) return fill('timeout');
      const args = [
        valueHandle(context, input.value),
        context.newNumber(input.ts),
        input.previous === null ? context.null : valueHandle(context, input.previous),
      ];
      let result;
      try {
        result = context.callFunction(fn, context.undefined, args);
      } finally {
        for (const handle of args) handle.dispose();
      }
      if (result.error) {
        const outcome = classify(context, describe, result.error, state);
        result.error.dispose();
        if (outcome[1] === 'timeout' || outcome[1] === 'memory') return fill(outcome[1]);
        outcomes.push(outcome);
        continue;
      }
      outcomes.push(readValue(context, result.value, request.textLimit));
      result.value.dispose();
    }
    return outcomes;
  } finally {
    fn?.dispose();
    sourceOf.dispose();
    describe.dispose();
  }
}

function valueHandle(context, value) {
  if (typeof value === 'number') return context.newNumber(value);
  if (typeof value === 'string') return context.newString(value);
  return value ? context.true : context.false;
}

function sourceIs(context, sourceOf, fn, text) {
  const result = context.callFunction(sourceOf, context.undefined, fn);
  if (result.error) {
    result.error.dispose();
    return false;
  }
  const same =
    context.typeof(result.value) === 'string' && context.getString(result.value) === text;
  result.value.dispose();
  return same;
}

/** The code's return value as an outcome (see the protocol above). */
function readValue(context, handle, textLimit) {
  switch (context.typeof(handle)) {
    case 'number': {
      const n = context.getNumber(handle);
      return Number.isFinite(n) ? ['v', n] : ['e', 'result'];
    }
    case 'string': {
      // The length first: a huge text is not copied out.
      const length = context.getProp(handle, 'length');
      const chars = context.getNumber(length);
      length.dispose();
      return chars > textLimit ? ['e', 'text'] : ['v', context.getString(handle)];
    }
    case 'boolean':
      return ['v', context.sameValue(handle, context.true)];
    case 'undefined':
      return ['d'];
    case 'object':
      return context.sameValue(handle, context.null) ? ['d'] : ['e', 'result'];
    default:
      return ['e', 'result'];
  }
}

/** What a thrown value means: a limit that was hit, or the code's own error (name: message). */
function classify(context, describe, error, state) {
  if (state.interrupted) return ['e', 'timeout'];
  let name = 'Error';
  let message = '';
  const described = context.callFunction(describe, context.undefined, error);
  if (described.error) {
    described.error.dispose();
  } else {
    if (context.typeof(described.value) === 'string') {
      const text = context.getString(described.value);
      const cut = text.indexOf('\n');
      name = text.slice(0, cut);
      message = text.slice(cut + 1);
    }
    described.value.dispose();
  }
  if (state.interrupted) return ['e', 'timeout'];
  if (name === 'InternalError' && message === 'interrupted') return ['e', 'timeout'];
  if (name === 'InternalError' && message === 'out of memory') return ['e', 'memory'];
  if (name === 'InternalError' && message === 'stack overflow') return ['e', 'stack'];
  // An allocation that failed at the memory's maximum may leave no error object to describe.
  if (memory.buffer.byteLength >= maximumPages * PAGE && message === '') return ['e', 'memory'];
  return ['e', 'thrown', `${name}: ${message}`.slice(0, 200)];
}
