// The thread that draws reports' PDFs (pdf.ts) and service booklets' (../booklet/booklet-pdf.ts),
// off the server's event loop: ingest and requests go on while a PDF is made (bench
// report-ingest). Started by pdf-thread.ts with no loaders of its parent (vitest, a bundle, tsx
// alike), it registers tsx itself to load them.
//   request on parentPort: { id, kind, content }   (kind 'report' | 'booklet'; ReportContent or
//                                                    BookletContent, structured-cloned)
//   reply on parentPort:   { id, bytes }           (Uint8Array) | { id, error }
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { renderPdf } = await import('./pdf.ts');
const { renderBookletPdf } = await import('../booklet/booklet-pdf.ts');

parentPort.on('message', async (message) => {
  try {
    const bytes =
      message.kind === 'booklet'
        ? await renderBookletPdf(message.content)
        : await renderPdf(message.content);
    parentPort.postMessage({ id: message.id, bytes });
  } catch (err) {
    parentPort.postMessage({ id: message.id, error: String(err) });
  }
});
parentPort.postMessage('ready');
