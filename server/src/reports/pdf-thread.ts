import { Worker } from 'node:worker_threads';
import type { BookletContent } from '../booklet/booklet-content';
import type { ReportContent } from './report-content';

/** What the thread draws: a report's PDF, or a service booklet's (issue 37 item 3). */
type Drawing =
  | { readonly kind: 'report'; readonly content: ReportContent }
  | { readonly kind: 'booklet'; readonly content: BookletContent };

type Reply = { id: number; bytes: Uint8Array } | { id: number; error: string };

/**
 * Reports' PDFs, and service booklets', drawn on a worker thread of their own (pdf-worker.mjs): a
 * PDF is a stretch of synchronous drawing and compression (about 0.1 to 0.5 s), which on the
 * server's event loop held up ingest while 100 reports fell due (bench report-ingest). One thread,
 * one PDF at a time in arrival order; started at the first PDF, started again after a crash (the
 * PDFs it was drawing fail: reports' runs are retried, a booklet's request answers 500), ended by
 * `close()`.
 */
export class PdfThread {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (bytes: Buffer) => void; reject: (err: Error) => void }
  >();

  private start(): Worker {
    const worker = new Worker(new URL('./pdf-worker.mjs', import.meta.url), {
      // Its own loader (tsx, registered inside): none of the parent's, whatever runs it.
      execArgv: [],
    });
    // Never keeps the process alive by itself.
    worker.unref();
    worker.on('message', (message: Reply | 'ready') => {
      if (message === 'ready') return;
      const waiting = this.waiting.get(message.id);
      if (waiting === undefined) return;
      this.waiting.delete(message.id);
      if ('error' in message) waiting.reject(new Error(message.error));
      else
        waiting.resolve(
          Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength),
        );
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the PDF thread ended (${code})`)));
    return worker;
  }

  /** The report's PDF as bytes. */
  readonly render = (content: ReportContent): Promise<Buffer> =>
    this.draw({ kind: 'report', content });

  /** A service booklet's PDF as bytes (booklet/booklet-pdf.ts). */
  readonly renderBooklet = (content: BookletContent): Promise<Buffer> =>
    this.draw({ kind: 'booklet', content });

  private draw(drawing: Drawing): Promise<Buffer> {
    this.worker ??= this.start();
    const id = (this.next += 1);
    const worker = this.worker;
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // Held while it draws: the process's stop waits for it through the runner.
      worker.ref();
      worker.postMessage({ id, ...drawing });
    }).finally(() => {
      if (this.waiting.size === 0) worker.unref();
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
