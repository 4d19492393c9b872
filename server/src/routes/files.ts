import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  GATEWAY_USERNAME_PREFIX,
  gatewayBrokerLogin,
  idField,
  UPLOAD_CHUNK_MAX_BYTES,
  uploadChunkQuerySchema,
} from '@plant/shared-schema';
import type { FileDownload, FileService } from '../files/file.service';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validParams, validQuery } from '../http/validate';
import type { Services } from '../services';
import { invalidInput } from '../services/domain-error';

const idParams = z.object({ id: idField });

/**
 * The rest of a chunk refused before it was read (409: the upload stands elsewhere; 404), up to
 * `max` bytes, so the connection can carry the client's next request. Left unread, the node
 * adapter drains it for 500 ms at most and then closes the connection, and a client that sent its
 * next request on it (the state it asks after a 409) got "other side closed" on a busy machine.
 */
async function readToEnd(body: ReadableStream<Uint8Array>, max: number): Promise<void> {
  if (body.locked) return;
  const reader = body.getReader();
  let read = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      read += next.value.byteLength;
      if (read > max) break;
    }
  } catch {
    // A client gone: nothing more to read.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Media types a browser may show inline: images; every other file is a download. */
const INLINE = /^image\/(jpeg|png|webp|gif)$/;

/**
 * Files (DESIGN.md §9): an upload's state and its chunks, a file's bytes and its thumbnail, each
 * with the caller's access to the file's asset checked (FileService); and the images of themes.
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
    try {
      return c.json({ data: await files.putChunk(c.get('session'), id, offset, body) });
    } catch (err) {
      await readToEnd(body, UPLOAD_CHUNK_MAX_BYTES);
      throw err;
    }
  });

  app.get('/files/:id/content', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return download(await files.content(c.get('session'), id));
  });

  app.get('/files/:id/thumbnail', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return download(await files.thumbnail(c.get('session'), id));
  });

  // A released version's artifact for the gateway a rollout wants to run it (DESIGN.md §15): the
  // agent's own credentials (HTTP Basic: its broker user name and secret), no session.
  app.get('/gateway/releases/:id/artifact', async (c) => {
    const { id } = validParams(c, idParams);
    const login = basicLogin(c.req.header('Authorization'));
    const gatewayId = login?.username.startsWith(GATEWAY_USERNAME_PREFIX)
      ? login.username.slice(GATEWAY_USERNAME_PREFIX.length)
      : undefined;
    const identity =
      login === undefined || gatewayId === undefined
        ? undefined
        : await services.gatewayCredentials.verify(
            login.username,
            Buffer.from(login.password, 'utf8'),
            gatewayBrokerLogin(gatewayId).clientId,
          );
    if (identity === undefined)
      return c.json({ success: false, message: 'Unauthenticated.' }, 401, {
        'WWW-Authenticate': 'Basic realm="gateway"',
      });
    const file = await files.gatewayArtifact(identity, id);
    if (file === undefined) return c.json({ success: false, message: 'Not found.' }, 404);
    return download(file);
  });

  // A theme's images (issue 36): to anyone while the theme names them (the sign-in page has no
  // token); FileService.themeImage decides.
  app.get('/theme-images/:id', async (c) => {
    const { id } = validParams(c, idParams);
    const image = await files.themeImage(id);
    if (image === undefined) return c.json({ success: false, message: 'Not found.' }, 404);
    return themeImage(image);
  });

  return app;
}

function themeImage(image: FileDownload): Response {
  return new Response(Readable.toWeb(image.body) as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': image.type,
      'Content-Length': String(image.size),
      // A file's bytes never change (its checksum is fixed); an hour, in case the theme lets go.
      'Cache-Control': 'public, max-age=3600',
      ETag: `"${image.sha256}"`,
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    },
  });
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

/** The user name and password of an HTTP Basic header (RFC 7617), if it is one. */
function basicLogin(
  header: string | undefined,
): { username: string; password: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]{1,1000})$/.exec(header ?? '');
  if (match === null) return undefined;
  const text = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 1) return undefined;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}
