import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { z } from 'zod';
import { idField, uploadChunkQuerySchema } from '@plant/shared-schema';
import type { FileDownload, FileService } from '../files/file.service';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validParams, validQuery } from '../http/validate';
import type { Services } from '../services';
import { invalidInput } from '../services/domain-error';

const idParams = z.object({ id: idField });

/** Media types a browser may show inline: images; every other file is a download. */
const INLINE = /^image\/(jpeg|png|webp|gif)$/;

/**
 * Files (DESIGN.md §9): an upload's state and its chunks, a file's bytes and its thumbnail, each
 * with the caller's access to the file's asset checked (FileService).
 */
export function fileRoutes(services: Services, files: FileService) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.get('/files/:id/upload', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return c.json({ data: await files.uploadState(c.get('session'), id) });
  });

  app.put('/files/:id/upload', auth, async (c) => {
    const { id } = validParams(c, idParams);
    const { offset } = validQuery(c, uploadChunkQuerySchema);
    const body = c.req.raw.body;
    if (body === null) throw invalidInput({ body: ['The chunk has no bytes.'] });
    return c.json({ data: await files.putChunk(c.get('session'), id, offset, body) });
  });

  app.get('/files/:id/content', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return download(await files.content(c.get('session'), id));
  });

  app.get('/files/:id/thumbnail', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return download(await files.thumbnail(c.get('session'), id));
  });

  return app;
}

function download(file: FileDownload): Response {
  const inline = INLINE.test(file.type);
  const name = encodeURIComponent(file.name);
  return new Response(Readable.toWeb(file.body) as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': file.type,
      'Content-Length': String(file.size),
      // Never in the browser's HTTP cache, which outlives a sign-out and a lost access and is
      // shared by the profile's users: the worker keeps its own copy where the user chose.
      'Cache-Control': 'private, no-store',
      ETag: `"${file.sha256}"`,
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${name}`,
      // What a user uploaded is never run as a page of ours.
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
