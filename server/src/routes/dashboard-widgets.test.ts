import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, WIDGET_OPTION_TEXTS } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { startTestServer, type TestServer } from '../testing/harness';

/*
 * A dashboard's widgets carry their type's options (issue 31 item 2): the server checks them by
 * the shared schema of each type (shared-schema widget-options.ts) and refuses a bad one with
 * the error under its field, on a new dashboard and on a change of one.
 */
let s: TestServer;
let token = '';

beforeAll(async () => {
  s = await startTestServer();
  token = await s.signIn(DEMO_USERS.admin);
});
afterAll(() => s.close());

const gauge = (options: Record<string, unknown>, streams = ['s-1']) => ({
  id: 'gauge-1',
  type: 'gauge',
  x: 0,
  y: 0,
  w: 6,
  h: 6,
  streams,
  options,
});

describe('dashboard widget options on the server', () => {
  it('refuses a bad option with a field error, and stores good ones', async () => {
    const path = apiPaths.collection('dashboards');
    const bad = await s.call('POST', path, {
      token,
      json: { name: 'Widgets', widgets: [gauge({ min: 100, max: 10 })] },
    });
    expect(bad.status).toBe(422);
    expect((bad.json as { errors: Record<string, string[]> }).errors).toEqual({
      'widgets.0.options.max': [WIDGET_OPTION_TEXTS.minBelowMax],
    });
    const twoStreams = await s.call('POST', path, {
      token,
      json: { name: 'Widgets', widgets: [gauge({}, ['s-1', 's-2'])] },
    });
    expect((twoStreams.json as { errors: Record<string, string[]> }).errors).toEqual({
      'widgets.0.streams': [WIDGET_OPTION_TEXTS.oneStream],
    });

    const good = await s.call('POST', path, {
      token,
      json: { name: 'Widgets', widgets: [gauge({ min: 0, max: 120, decimals: 1 })] },
    });
    expect(good.status, good.text).toBe(201);
    const id = (good.json as { data: { id: string } }).data.id;
    const changed = await s.call('PUT', apiPaths.model('dashboards', id), {
      token,
      json: { widgets: [gauge({ decimals: 12 })] },
    });
    expect(changed.status).toBe(422);
    expect((changed.json as { errors: Record<string, string[]> }).errors).toEqual({
      'widgets.0.options.decimals': [WIDGET_OPTION_TEXTS.decimals],
    });
  });
});
