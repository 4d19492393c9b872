import type { z } from 'zod';
import {
  API_BASE,
  apiPaths,
  ERROR_TEXTS,
  modelUpdateSchema,
  SERVER_TIME_HEADER,
  type ModelUpdate,
  type RequestFailed,
} from '@plant/shared-schema';
import type { Logger } from '../log';
import { ClockOffset } from './clock-offset';

/** Why a call failed. `network`: no answer at all (offline, reset); the rest are answers. */
export type ApiErrorKind = 'network' | 'http' | 'empty' | 'unparseable' | 'invalid';

/** An expected failure, as a value (it crosses the worker boundary as is). */
export interface ApiError {
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when there was no answer. */
  readonly status: number;
  readonly message: string;
  readonly fields?: Readonly<Record<string, readonly string[]>>;
}

export type ApiResult<T> =
  | { readonly ok: true; readonly status: number; readonly data: T }
  | { readonly ok: false; readonly error: ApiError };

/** What the envelope of an answer tells beyond its data (DESIGN.md §5). */
export interface ApiListener {
  /** `_events`: model updates to apply like those from the broker. */
  events?(updates: readonly ModelUpdate[]): void;
  /** `_permissionChecks`: the UI opens a check dialog. */
  permissionChecks?(checks: readonly unknown[]): void;
  /** `message` (+ `translationParams`) of an answer, or a failure's message: shown as feedback. */
  feedback?(feedback: Feedback): void;
  /** Any answer arrived (not for network failures): the server is reachable. */
  answered?(ok: boolean): void;
  /** The server's clock was measured anew: it is `offsetMs` ahead of this device's. */
  clock?(offsetMs: number): void;
}

export interface Feedback {
  readonly kind: 'success' | 'error';
  readonly message: string;
  readonly translationParams?: Readonly<Record<string, string | number>>;
}

export interface CallOptions<T> {
  readonly body?: unknown;
  /** Parses the whole answer body; without it the body is answered unchecked as `unknown`. */
  readonly schema?: z.ZodType<T>;
  readonly headers?: Readonly<Record<string, string>>;
  /** No feedback for failures: the caller shows them its own way (outbox, poller). */
  readonly quiet?: boolean;
  /**
   * The sync's own traffic (log reads, snapshot pages, broker credentials): its answers are not
   * told to `answered`, which would otherwise make the poller poll because it polled.
   */
  readonly background?: boolean;
  readonly signal?: AbortSignal;
  /** The answer is text (a stylesheet), answered as a string without the envelope. */
  readonly text?: boolean;
  /** The answer as it came (`RawAnswer`), any status: no envelope, feedback or report. */
  readonly raw?: boolean;
  /** Bytes to send as they are (a file's chunk), instead of a JSON body. */
  readonly bytes?: Blob;
  /** The answer is bytes (a file), answered as a Blob without the envelope. */
  readonly binary?: boolean;
  /** How the request goes out, when not by fetch (an upload that reports its progress). */
  readonly transport?: (url: string, init: RequestInit) => Promise<Response>;
}

/** A `raw` call's answer: the status and the body (parsed JSON, else the text). */
export interface RawAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface ApiClientOptions {
  /** The server's origin, e.g. `https://plant.example.com`. */
  readonly origin: string;
  /** The bearer token now (it changes on sign-in and account switch). */
  readonly token: () => string | null;
  /** The page's address, sent with requestFailed reports. */
  readonly appUrl: () => string;
  readonly log: Logger;
  readonly fetch?: typeof fetch;
  /** How long a call waits for the answer to begin (default ANSWER_WITHIN_MS). */
  readonly answerWithinMs?: number;
}

/**
 * A call the server has not begun to answer within this time ends as no answer (`network`), as
 * a refused or reset one does: a connection that went silent for good (a NAT or a plant's proxy
 * that forgot it, a hung server) would otherwise hold the call, and the outbox behind it, for as
 * long as the browser keeps the socket, which can be forever. An outbox batch then goes again
 * with the same ids (the server applies each once). Not for uploads of bytes (a file's chunk on
 * a slow link may take longer to send than this): their progress is their own.
 */
export const ANSWER_WITHIN_MS = 60_000;

/** Paths that are never reported to requestFailed (spec 000 §7). */
const UNREPORTED = [apiPaths.requestFailed(), 'terminalBridge'];

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The one way the worker talks HTTP to the server (DESIGN.md invariant 1): auth and marker
 * headers, the envelope (`_events`, `_permissionChecks`, `message`), failures as values, and
 * `POST requestFailed` for every failed or empty answer.
 */
export class ApiClient {
  private readonly listeners = new Set<ApiListener>();
  private readonly clock = new ClockOffset();
  private toldOffset = 0;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ApiClientOptions) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  }

  listen(listener: ApiListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get<T>(path: string, options: CallOptions<T> = {}) {
    return this.call('GET', path, options);
  }

  async call<T = unknown>(
    method: string,
    path: string,
    options: CallOptions<T> = {},
  ): Promise<ApiResult<T>> {
    const url = `${this.options.origin}${path.startsWith('/') ? '' : `${API_BASE}/`}${path}`;
    const headers: Record<string, string> = {
      Accept: options.text === true ? 'text/css, text/plain, */*' : 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...options.headers,
    };
    const token = this.options.token();
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    const init: RequestInit = { method, headers };
    if (options.bytes !== undefined) {
      headers['Content-Type'] =
        options.bytes.type === '' ? 'application/octet-stream' : options.bytes.type;
      init.body = options.bytes;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    // Bytes go out at the link's pace, and a transport (an upload with progress) has its own.
    const limited = options.bytes === undefined && options.transport === undefined;
    const limit = this.options.answerWithinMs ?? ANSWER_WITHIN_MS;
    const timeout = limited ? new AbortController() : undefined;
    const signals = [options.signal, timeout?.signal].filter((s) => s !== undefined);
    if (signals.length > 0) init.signal = AbortSignal.any(signals);
    const timer = timeout === undefined ? undefined : setTimeout(() => timeout.abort(), limit);

    let response: Response;
    let text: string;
    try {
      const sentAt = Date.now();
      try {
        response = await (options.transport ?? this.fetchImpl)(url, init);
      } finally {
        clearTimeout(timer);
      }
      this.measureClock(sentAt, response);
      if (options.binary === true && response.ok) {
        const blob = await response.blob();
        if (options.background !== true) this.tell((l) => l.answered?.(true));
        return { ok: true, status: response.status, data: blob as T };
      }
      text = await response.text();
    } catch (err) {
      // No answer: offline, refused, reset, silent. Nothing to report to a server we cannot reach.
      const silent = timeout?.signal.aborted === true && options.signal?.aborted !== true;
      return this.failed(method, path, options, {
        kind: 'network',
        status: 0,
        message: silent
          ? `No answer within ${String(Math.ceil(limit / 1000))} s.`
          : err instanceof Error
            ? err.message
            : String(err),
      });
    }
    if (options.background !== true) this.tell((l) => l.answered?.(response.ok));
    if (options.raw === true) {
      const raw: RawAnswer = { status: response.status, body: parsedOrText(text) };
      return { ok: true, status: response.status, data: raw as T };
    }
    if (options.text === true && response.ok) {
      return { ok: true, status: response.status, data: text as T };
    }
    // 204 No Content: success with nothing to read (DELETE routes answer it: spec 000 §7).
    if (response.status === 204 && text.trim() === '') {
      return { ok: true, status: 204, data: null as T };
    }
    if (text.trim() === '') {
      return this.failed(method, path, options, {
        kind: 'empty',
        status: response.status,
        message: ERROR_TEXTS.emptyBody,
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return this.failed(method, path, options, {
        kind: 'unparseable',
        status: response.status,
        message: ERROR_TEXTS.unknown,
      });
    }
    if (!response.ok)
      return this.failed(method, path, options, this.errorOf(response.status, body));
    this.envelope(body);
    if (options.schema === undefined) return { ok: true, status: response.status, data: body as T };
    const parsed = options.schema.safeParse(body);
    if (!parsed.success) {
      this.options.log.warn('answer does not match its schema', {
        path,
        issues: parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`),
      });
      return this.failed(method, path, options, {
        kind: 'invalid',
        status: response.status,
        message: ERROR_TEXTS.unknown,
      });
    }
    return { ok: true, status: response.status, data: parsed.data };
  }

  /** The server's clock, ahead of this device's by this much (ms): relative times use it. */
  get clockOffset(): number {
    return this.clock.offset;
  }

  private measureClock(sentAt: number, response: Response): void {
    const header = response.headers.get(SERVER_TIME_HEADER);
    if (header === null) return;
    if (!this.clock.sample(sentAt, Date.now(), Number(header))) return;
    // Told on a change that shows (a quarter second), not on every answer's jitter.
    const offset = this.clock.offset;
    if (Math.abs(offset - this.toldOffset) < 250) return;
    this.toldOffset = offset;
    this.tell((l) => l.clock?.(offset));
  }

  /** Applies what an answer's envelope carries besides its data. */
  private envelope(body: unknown): void {
    if (!isRecord(body)) return;
    if (Array.isArray(body._events)) {
      const updates = body._events.flatMap((e) => {
        const parsed = modelUpdateSchema.safeParse(e);
        return parsed.success ? [parsed.data] : [];
      });
      if (updates.length > 0) this.tell((l) => l.events?.(updates));
    }
    const checks = body._permissionChecks;
    if (Array.isArray(checks) && checks.length > 0) this.tell((l) => l.permissionChecks?.(checks));
    if (typeof body.message === 'string' && body.message !== '') {
      const message = body.message;
      const params = isRecord(body.translationParams)
        ? (body.translationParams as Record<string, string | number>)
        : undefined;
      this.tell((l) =>
        l.feedback?.({
          kind: body.success === false ? 'error' : 'success',
          message,
          ...(params === undefined ? {} : { translationParams: params }),
        }),
      );
    }
  }

  private errorOf(status: number, body: unknown): ApiError {
    if (!isRecord(body)) return { kind: 'http', status, message: ERROR_TEXTS.unknown };
    const message =
      typeof body.message === 'string' && body.message !== ''
        ? body.message
        : typeof body.error_description === 'string' && body.error_description !== ''
          ? body.error_description
          : ERROR_TEXTS.unknown;
    const fields = isRecord(body.errors)
      ? (body.errors as Record<string, readonly string[]>)
      : undefined;
    return { kind: 'http', status, message, ...(fields === undefined ? {} : { fields }) };
  }

  private failed<T>(
    method: string,
    path: string,
    options: CallOptions<T>,
    error: ApiError,
  ): ApiResult<T> {
    if (options.quiet !== true && error.kind !== 'network') {
      this.tell((l) => l.feedback?.({ kind: 'error', message: error.message }));
    }
    if (error.kind !== 'network' && !UNREPORTED.some((p) => path.startsWith(p))) {
      this.report({
        path: path.slice(0, 2000),
        status: error.status,
        message: error.message.slice(0, 2000),
        appUrl: this.options.appUrl().slice(0, 2000),
        // The method only: bodies may hold passwords and are not sent anywhere else.
        params: { method },
      });
    }
    return { ok: false, error };
  }

  /** POST requestFailed, in the background; its own failure is only logged (never reported). */
  private report(failure: RequestFailed): void {
    this.call('POST', apiPaths.requestFailed(), {
      body: failure,
      quiet: true,
      background: true,
    }).then(
      (result) => {
        if (!result.ok) this.options.log.warn('requestFailed not sent', { ...result.error });
      },
      (err: unknown) => this.options.log.warn('requestFailed not sent', { error: String(err) }),
    );
  }

  private tell(each: (listener: ApiListener) => void): void {
    for (const listener of this.listeners) {
      try {
        each(listener);
      } catch (err) {
        this.options.log.error('API listener failed', { error: String(err) });
      }
    }
  }
}

/**
 * A transport that tells how much of the request's body has gone out (`onProgress`, 0 to 1):
 * fetch cannot, XMLHttpRequest can (in a worker too). Answers a Response like fetch, and fails
 * like fetch when no answer comes.
 */
export function progressTransport(
  onProgress: (fraction: number) => void,
): (url: string, init: RequestInit) => Promise<Response> {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', url);
      xhr.responseType = 'arraybuffer';
      for (const [name, value] of Object.entries(init.headers ?? {}) as [string, string][]) {
        xhr.setRequestHeader(name, value);
      }
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        const empty = xhr.status === 204 || xhr.status === 304;
        resolve(
          new Response(empty ? null : (xhr.response as ArrayBuffer), {
            status: xhr.status,
            headers,
          }),
        );
      };
      xhr.onerror = () => reject(new TypeError('The upload could not reach the server.'));
      xhr.onabort = () => reject(new DOMException('The upload was stopped.', 'AbortError'));
      init.signal?.addEventListener('abort', () => xhr.abort());
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
