import fs from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfiguredDatabase, type Db } from '../../db/database';
import { createLogger } from '../../logger';
import { Mailer } from '../../services/mail.service';
import { PermanentDeliveryError, type OutgoingMessage, type Recipient } from '../contract';
import { createChannels } from './index';
import { HttpSmsDriver, SMS_MAX_CHARS, SmsChannel } from './sms-channel';

const log = createLogger('silent');
const TOKEN = 'sms-token-7f3a9c';

interface Received {
  headers: IncomingHttpHeaders;
  method: string;
  body: unknown;
}

/** A loopback HTTP sink in an SMS provider's shape; `answer` decides each reply. */
async function startSink() {
  const received: Received[] = [];
  let answer: (res: ServerResponse) => void = (res) => res.writeHead(202).end('{"id":"m1"}');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: req.headers,
        method: req.method ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
      });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sms`,
    received,
    answerWith(fn: (res: ServerResponse) => void) {
      answer = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const message: OutgoingMessage = {
  accountId: 'acc',
  subject: 'Alarm: Oven 3',
  text: 'Oven 3: 91.5 °C since 02:14 (limit 80 °C).',
  url: 'https://plant.example/app/alarms/alarm-1',
  tag: 'alarm-1:raised:1',
  severity: 'critical',
};
const to = (phone: string | null): Recipient => ({
  userId: 'u1',
  email: null,
  phone,
  name: 'Tech',
  language: 'en',
});

let sink: Awaited<ReturnType<typeof startSink>>;
let channel: SmsChannel;
beforeAll(async () => {
  sink = await startSink();
  channel = new SmsChannel(new HttpSmsDriver({ url: sink.url, token: TOKEN }));
});
afterAll(() => sink.close());

describe('the SMS channel over HTTP', () => {
  it('POSTs { to, text } with the bearer token; a 2xx is sent', async () => {
    sink.answerWith((res) => res.writeHead(202).end('{"id":"m1"}'));
    const before = sink.received.length;
    expect(await channel.send(to('+49 170 1234567'), message)).toEqual({ kind: 'sent' });
    expect(sink.received.length - before).toBe(1);
    const got = sink.received[before];
    expect(got?.method).toBe('POST');
    expect(got?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.body).toEqual({ to: '+49 170 1234567', text: `${message.text}\n${message.url}` });
  });

  it(`cuts a long text to ${SMS_MAX_CHARS} characters and keeps the link`, async () => {
    sink.answerWith((res) => res.writeHead(200).end());
    const before = sink.received.length;
    const long = { ...message, text: `${'Störung 🔥 '.repeat(300)}end` };
    await channel.send(to('+491701234567'), long);
    const { text } = sink.received[before]?.body as { text: string };
    expect(Array.from(text)).toHaveLength(SMS_MAX_CHARS);
    expect(text.endsWith(`…\n${message.url}`)).toBe(true);
    expect(text.startsWith('Störung 🔥 Störung')).toBe(true);
  });

  it('500, 408 and 429 are failures to retry; 400 and 401 are final', async () => {
    for (const status of [500, 503, 408, 429]) {
      sink.answerWith((res) => res.writeHead(status).end('{"error":"later"}'));
      const sent = channel.send(to('+491701234567'), message);
      await expect(sent).rejects.toThrow(new RegExp(`answered ${status}`));
      await expect(sent).rejects.not.toBeInstanceOf(PermanentDeliveryError);
    }
    for (const status of [400, 401, 422]) {
      sink.answerWith((res) => res.writeHead(status).end('{"error":"invalid number"}'));
      const sent = channel.send(to('+491701234567'), message);
      await expect(sent).rejects.toBeInstanceOf(PermanentDeliveryError);
      await expect(sent).rejects.toThrow(/invalid number/);
    }
  });

  it('a provider that does not answer in time, or not at all, is a failure to retry', async () => {
    const before = sink.received.length;
    sink.answerWith(() => undefined); // never answers
    const slow = new SmsChannel(new HttpSmsDriver({ url: sink.url, token: TOKEN, timeoutMs: 300 }));
    const late = slow.send(to('+491701234567'), message);
    await expect(late).rejects.toThrow(/timed out/);
    await expect(late).rejects.not.toBeInstanceOf(PermanentDeliveryError);
    expect(sink.received.length - before).toBe(1);

    const gone = await startSink();
    await gone.close();
    const refused = new SmsChannel(new HttpSmsDriver({ url: gone.url, token: TOKEN }));
    const down = refused.send(to('+491701234567'), message);
    await expect(down).rejects.toThrow(/SMS provider request failed/);
    await expect(down).rejects.not.toBeInstanceOf(PermanentDeliveryError);
  });

  it('skips a recipient without a phone number', async () => {
    const before = sink.received.length;
    expect(await channel.send(to(null), message)).toMatchObject({ kind: 'skipped' });
    expect(await channel.send(to('  '), message)).toMatchObject({ kind: 'skipped' });
    expect(sink.received.length).toBe(before);
  });
});

describe('the SMS channel without SMS_URL', () => {
  let dataDir: string;
  let db: Db;
  let mailer: Mailer;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-sms-'));
    db = openConfiguredDatabase({ dataDir, databaseUrl: undefined });
    mailer = new Mailer({ smtpUrl: undefined, from: 'x@plant.example', dataDir }, log);
  });
  afterAll(async () => {
    mailer.close();
    await db.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('appends each message as a JSON line to DATA_DIR/sms/outbox.jsonl (0600)', async () => {
    const { sms } = await createChannels({
      config: { smsUrl: undefined, smsToken: undefined, vapidSubject: 'mailto:x@plant.example' },
      db,
      mailer,
      log,
      dataDir,
    });
    expect(await sms.send(to('+491701234567'), message)).toEqual({ kind: 'sent' });
    expect(await sms.send(to('+491709999999'), { ...message, text: 'Cleared.' })).toEqual({
      kind: 'sent',
    });
    const file = path.join(dataDir, 'sms', 'outbox.jsonl');
    const lines = (await fs.readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toMatchObject([
      { to: '+491701234567', text: `${message.text}\n${message.url}` },
      { to: '+491709999999', text: `Cleared.\n${message.url}` },
    ]);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });
});
