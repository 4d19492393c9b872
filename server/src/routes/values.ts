import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { z } from 'zod';
import {
  idField,
  preprocessingTrySchema,
  severalValuesQuerySchema,
  valuesCsvQuerySchema,
  valueRetentionSchema,
  valuesQuerySchema,
} from '@plant/shared-schema';
import type { ValuesService } from '../gateways/values.service';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams, validQuery } from '../http/validate';
import type { Services } from '../services';

const idParams = z.object({ id: idField });

/** Machine values (DESIGN.md §8): ranges, the CSV download, latest values of an asset. */
export function valueRoutes(services: Services, values: ValuesService) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  // Several streams over one range (a diagram with several lines).
  app.get('/datastreams/values', auth, async (c) => {
    const q = validQuery(c, severalValuesQuerySchema);
    return c.json({ data: await values.range(c.get('session'), q.streams, q) });
  });

  app.get('/datastreams/:id/values', auth, async (c) => {
    const { id } = validParams(c, idParams);
    const q = validQuery(c, valuesQuerySchema);
    const [answer] = await values.range(c.get('session'), [id], q);
    return c.json({ data: answer });
  });

  // The raw points as CSV, written as they are read (a year of one stream is millions of rows).
  app.get('/datastreams/:id/values.csv', auth, async (c) => {
    const { id } = validParams(c, z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }));
    const q = validQuery(c, valuesCsvQuerySchema);
    const { stream: info, rows } = await values.scan(c.get('session'), id, q);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${info.id}.csv"`);
    return stream(c, async (out) => {
      let chunk = 'ts,time,value\n';
      for await (const [ts, value] of rows) {
        chunk += `${ts},${new Date(ts).toISOString()},${csvCell(value)}\n`;
        if (chunk.length > 64 * 1024) {
          await out.write(chunk);
          chunk = '';
        }
      }
      await out.write(chunk);
    });
  });

  // The stream form's "try the code" on its latest value (or one given).
  app.post('/datastreams/:id/preprocessing/try', auth, async (c) => {
    const { id } = validParams(c, idParams);
    const body = await validBody(c, preprocessingTrySchema);
    return c.json({ data: await values.tryPreprocessing(c.get('session'), id, body) });
  });

  app.get('/assets/:id/values/latest', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return c.json({ data: await values.latest(c.get('session'), id) });
  });

  // How long the active account keeps values (spec 001 §9).
  app.get('/account/value-retention', auth, async (c) =>
    c.json({ data: await values.retention(c.get('session')) }),
  );
  app.put('/account/value-retention', auth, async (c) => {
    const body = await validBody(c, valueRetentionSchema);
    return c.json({ data: await values.setRetention(c.get('session'), body) });
  });

  return app;
}

/**
 * A CSV cell: numbers as they are, texts quoted with their quotes doubled. A text that a
 * spreadsheet would take for a formula (=, +, -, @ first) gets a leading apostrophe: values come
 * from devices, and a device's text must not run in the user's spreadsheet.
 */
function csvCell(value: number | string): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
