import { Hono } from 'hono';
import { idField, serviceBookletQuerySchema } from '@plant/shared-schema';
import { z } from 'zod';
import type { BookletService } from '../booklet/booklet.service';
import { downloadName } from '../files/file.service';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validParams, validQuery } from '../http/validate';
import type { Services } from '../services';

const idParams = z.object({ id: idField });

/** The service booklet's PDF (issue 37 item 3; booklet/booklet.service.ts). */
export function bookletRoutes(services: Services, booklet: BookletService) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.get('/assets/:id/servicebooklet.pdf', auth, async (c) => {
    const { id } = validParams(c, idParams);
    const query = validQuery(c, serviceBookletQuerySchema);
    const pdf = await booklet.pdf(c.get('session'), id, query);
    return new Response(new Uint8Array(pdf.bytes), {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Length': String(pdf.bytes.length),
        'Cache-Control': 'private, no-store',
        'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(downloadName(pdf.name))}`,
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  return app;
}
