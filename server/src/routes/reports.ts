import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { idField, reportRunFileParamsSchema } from '@plant/shared-schema';
import { z } from 'zod';
import { downloadName } from '../files/file.service';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validParams } from '../http/validate';
import type { ReportService } from '../reports/report.service';
import type { Services } from '../services';

const idParams = z.object({ id: idField });

/** Reports' calls beside the generic model routes (issue 31; reports/report.service.ts). */
export function reportRoutes(services: Services, reports: ReportService) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.post('/reports/:id/send', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return c.json({ data: await reports.sendNow(c.get('session'), id) });
  });

  app.get('/reports/:id/runs', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return c.json({ data: await reports.list(c.get('session'), id) });
  });

  app.get('/reports/:id/runs/:runid/files/:index', auth, async (c) => {
    const { id, runid, index } = validParams(c, reportRunFileParamsSchema);
    const file = await reports.file(c.get('session'), id, runid, index);
    return new Response(Readable.toWeb(file.body) as ReadableStream<Uint8Array>, {
      headers: {
        'Content-Type': file.type,
        'Content-Length': String(file.size),
        'Cache-Control': 'private, no-store',
        ETag: `"${file.sha256}"`,
        'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(downloadName(file.name))}`,
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  return app;
}
