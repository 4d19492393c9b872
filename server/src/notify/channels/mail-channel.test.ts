import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import { Mailer } from '../../services/mail.service';
import { decoded, startSmtp } from '../../testing/smtp';
import { PermanentDeliveryError, type OutgoingMessage, type Recipient } from '../contract';
import { MailChannel } from './mail-channel';

const log = createLogger('silent');

/** A real SMTP server on loopback that refuses some addresses for good (550), some for now (450). */
const startRefusingSmtp = () =>
  startSmtp({
    refuse: (address) =>
      address.startsWith('gone@')
        ? { code: 550, text: 'No such user here' }
        : address.startsWith('busy@')
          ? { code: 450, text: 'Mailbox busy, try later' }
          : undefined,
  });

const message: OutgoingMessage = {
  accountId: 'acc',
  subject: 'Alarm: Oven 3 temperature above limit',
  text: 'Oven 3: 91.5 since 02:14 (limit 80).',
  url: 'https://plant.example/app/alarms/0193c0de-aaaa-7bbb-8ccc-000000000001?from=mail&account=acc',
  tag: 'alarm-1:raised:1',
  severity: 'critical',
};
const to = (email: string | null): Recipient => ({
  userId: 'u1',
  email,
  phone: null,
  name: 'Tech',
  language: 'en',
});

let smtp: Awaited<ReturnType<typeof startRefusingSmtp>>;
let dataDir: string;
let mailer: Mailer;
let channel: MailChannel;
beforeAll(async () => {
  smtp = await startRefusingSmtp();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-mail-'));
  mailer = new Mailer({ smtpUrl: smtp.url, from: 'Plant <no-reply@plant.example>', dataDir }, log);
  channel = new MailChannel(mailer);
});
afterAll(async () => {
  mailer.close();
  await smtp.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the mail channel', () => {
  it('hands one mail with the subject and the link to the SMTP server', async () => {
    const before = smtp.inbox.length;
    expect(await channel.send(to('tech@plant.example'), message)).toEqual({ kind: 'sent' });
    expect(smtp.inbox.length - before).toBe(1);
    const mail = smtp.inbox[before];
    expect(mail?.to).toEqual(['tech@plant.example']);
    const text = decoded(mail?.raw ?? '');
    expect(text).toContain(`Subject: ${message.subject}`);
    expect(text).toContain(message.text);
    expect(text).toContain(message.url);
  });

  it('an address the server refuses for good (550 on RCPT) is a permanent failure', async () => {
    const before = smtp.inbox.length;
    const sent = channel.send(to('gone@plant.example'), message);
    await expect(sent).rejects.toBeInstanceOf(PermanentDeliveryError);
    await expect(sent).rejects.toThrow(/gone@plant\.example.*550/);
    expect(smtp.inbox.length).toBe(before);
  });

  it('a refusal for now (450) and an unreachable server are failures to retry', async () => {
    const busy = channel.send(to('busy@plant.example'), message);
    await expect(busy).rejects.toThrow(/450/);
    await expect(busy).rejects.not.toBeInstanceOf(PermanentDeliveryError);

    const closed = await startRefusingSmtp();
    await closed.close();
    const down = new Mailer(
      { smtpUrl: closed.url, from: 'Plant <no-reply@plant.example>', dataDir },
      log,
    );
    try {
      const failed = new MailChannel(down).send(to('tech@plant.example'), message);
      await expect(failed).rejects.toThrow(/ECONNREFUSED|connect/i);
      await expect(failed).rejects.not.toBeInstanceOf(PermanentDeliveryError);
    } finally {
      down.close();
    }
  });

  it('skips a recipient without an e-mail address', async () => {
    const before = smtp.inbox.length;
    expect(await channel.send(to(null), message)).toMatchObject({ kind: 'skipped' });
    expect(smtp.inbox.length).toBe(before);
  });

  it('without SMTP_URL the mail is written to DATA_DIR/mail', async () => {
    const fileMailer = new Mailer(
      { smtpUrl: undefined, from: 'Plant <no-reply@plant.example>', dataDir },
      log,
    );
    try {
      expect(await new MailChannel(fileMailer).send(to('tech@plant.example'), message)).toEqual({
        kind: 'sent',
      });
      const files = await fs.readdir(path.join(dataDir, 'mail'));
      expect(files).toHaveLength(1);
      const eml = decoded(await fs.readFile(path.join(dataDir, 'mail', files[0] ?? ''), 'utf8'));
      expect(eml).toContain(message.url);
    } finally {
      fileMailer.close();
    }
  });
});
