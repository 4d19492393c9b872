import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_RECIPIENT_TEXTS, API_BASE, alarmRecipientPaths } from '@plant/shared-schema';
import type { AppEnv } from '../http/context';
import { errorResponse } from '../http/errors';
import { createLogger } from '../logger';
import type { AlarmDispatcher } from '../notify/dispatcher';
import { notifyFixture, type NotifyFixture } from '../notify/notify-fixture';
import { RecipientInviteRepository } from '../notify/recipient-invite.repository';
import { SKIP_REASONS } from '../notify/recipients';
import { alarmRecipientRoutes } from './alarm-recipients';

/*
 * Recipient invitations (spec 001 §3) over real HTTP: the link in the invitation mail opens a
 * page that changes nothing (mail scanners follow links), its Confirm button confirms, a used or
 * unknown token is told so, and only a confirmed address gets the alarm's mail. The routes are
 * mounted as app.ts mounts them, on the dispatcher's invitations.
 */
let f: NotifyFixture;
let dispatcher: AlarmDispatcher;
let http: Server;
let base: string;

beforeAll(async () => {
  f = await notifyFixture();
  dispatcher = f.dispatcher();
  await dispatcher.round();
  const api = new Hono<AppEnv>();
  api.route('/', alarmRecipientRoutes(dispatcher.invites));
  const app = new Hono<AppEnv>();
  app.route(API_BASE, api);
  const log = createLogger('silent');
  app.onError((err, c) => errorResponse(err, c, log));
  http = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(s as Server),
    );
  });
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await dispatcher.stop();
  await f.close();
});

/** The confirmation link of the invitation mail sent to the address, on this test's server. */
async function invitationLink(email: string): Promise<{ url: string; token: string }> {
  await f.createAlarm({ name: `For ${email}`, recipients: [{ email, channels: ['mail'] }] });
  await dispatcher.round();
  const mail = f.channels.mail.to(email).at(-1);
  if (mail === undefined) throw new Error(`no invitation to ${email}`);
  const link = new URL(mail.url);
  const token = link.searchParams.get('token') ?? '';
  expect(mail.text).toContain(mail.url);
  return { url: `${base}${link.pathname}${link.search}`, token };
}

const stateOf = async (email: string) =>
  (await new RecipientInviteRepository(f.server.db).byEmails(f.accountId, [email])).get(email)
    ?.state;

const confirmPath = () => `${base}${API_BASE}/${alarmRecipientPaths.confirm()}`;

const postJson = (body: unknown) =>
  fetch(confirmPath(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the confirmation link', () => {
  it('shows a page that changes nothing, confirms by its button, and then works once only', async () => {
    const email = 'ops@example.com';
    const { url, token } = await invitationLink(email);

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain(email);
    expect(html).toContain('value="confirm"');
    expect(html).toContain('value="decline"');
    // Opened twice (a scanner, then the person): still waiting for an answer.
    await fetch(url);
    expect(await stateOf(email)).toBe('pending');

    // The page's form: what a browser posts when Confirm is pressed.
    const answer = await fetch(confirmPath(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, decision: 'confirm' }).toString(),
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(ALARM_RECIPIENT_TEXTS.confirmed);
    expect(await stateOf(email)).toBe('confirmed');

    const again = await postJson({ token, decision: 'decline' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ message: ALARM_RECIPIENT_TEXTS.used });
    expect(await stateOf(email)).toBe('confirmed');
    const reopened = await fetch(url);
    expect(reopened.status).toBe(409);
    expect(await reopened.text()).toContain(ALARM_RECIPIENT_TEXTS.used);

    // Confirmed: the next raise of an alarm naming it reaches it.
    const alarmId = await f.createAlarm({
      name: 'Compressor off',
      recipients: [{ email, channels: ['mail', 'sms'] }],
    });
    await f.raise(alarmId);
    await dispatcher.round();
    const got = f.channels.mail.to(email).filter((m) => m.url.endsWith(alarmId));
    expect(got.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Warning: \u2068Compressor off\u2069/),
    ]);
    const rows = await f.deliveries(alarmId);
    expect(rows.map((r) => [r.channel, r.state, r.last_error]).sort()).toEqual([
      ['mail', 'sent', null],
      ['sms', 'skipped', SKIP_REASONS.mailOnly],
    ]);
  });

  it('declined, the address gets nothing', async () => {
    const email = 'not-me@example.com';
    const { token } = await invitationLink(email);
    const answer = await postJson({ token, decision: 'decline' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: { email, state: 'declined' } });
    const alarmId = await f.createAlarm({
      name: 'Fan stopped',
      recipients: [{ email, channels: ['mail'] }],
    });
    await f.raise(alarmId);
    await dispatcher.round();
    expect(f.channels.mail.to(email).filter((m) => m.url.endsWith(alarmId))).toHaveLength(0);
    expect((await f.deliveries(alarmId)).map((r) => r.last_error)).toEqual([SKIP_REASONS.declined]);
  });

  it('refuses a malformed or unknown token with a clear text, on the page and in JSON', async () => {
    const malformed = await fetch(`${base}${API_BASE}/${alarmRecipientPaths.confirm('nope')}`);
    expect(malformed.status).toBe(422);
    expect(await malformed.text()).toContain(ALARM_RECIPIENT_TEXTS.invalid);
    const unknown = 'A'.repeat(43);
    const missing = await fetch(`${base}${API_BASE}/${alarmRecipientPaths.confirm(unknown)}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(ALARM_RECIPIENT_TEXTS.invalid);

    const json = await postJson({ token: unknown, decision: 'confirm' });
    expect(json.status).toBe(404);
    expect(await json.json()).toMatchObject({ message: ALARM_RECIPIENT_TEXTS.invalid });
    const bad = await postJson({ token: '<script>', decision: 'maybe' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      errors: { token: [ALARM_RECIPIENT_TEXTS.invalid], decision: [expect.any(String)] },
    });
    const form = await fetch(confirmPath(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: unknown, decision: 'confirm' }).toString(),
    });
    expect(form.status).toBe(404);
    expect(await form.text()).toContain(ALARM_RECIPIENT_TEXTS.invalid);
  });
});
