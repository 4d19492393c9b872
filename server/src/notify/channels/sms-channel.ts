import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../logger';
import {
  PermanentDeliveryError,
  type Channel,
  type OutgoingMessage,
  type Recipient,
  type SendOutcome,
} from '../contract';

/** The longest SMS text sent (three concatenated GSM segments' worth, in characters). */
export const SMS_MAX_CHARS = 480;
/** How long the provider has to answer before the send counts as failed (and is retried). */
export const SMS_TIMEOUT_MS = 10_000;

/**
 * One way of handing an SMS over. `send` resolves once the provider took it; it throws a
 * `PermanentDeliveryError` when the provider refused it for good, anything else to be retried.
 */
export interface SmsDriver {
  send(to: string, text: string): Promise<void>;
}

/** `text` cut to `max` characters (code points: an emoji is never split), with … when cut. */
export function cutText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * The SMS: the message's text and its link, within SMS_MAX_CHARS. The text is cut first, so the
 * link survives unless the link alone is too long to be of use in an SMS.
 */
export function smsText(message: OutgoingMessage): string {
  const text = message.text.trim();
  const link = message.url;
  if (text.includes(link) || Array.from(link).length > SMS_MAX_CHARS / 3) {
    return cutText(text, SMS_MAX_CHARS);
  }
  return `${cutText(text, SMS_MAX_CHARS - Array.from(link).length - 1)}\n${link}`;
}

/** What an HTTP answer comes to: 408 and 429 are "later", other 4xx "never", 5xx "later". */
function refusedForGood(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * An HTTP SMS provider's shape: POST SMS_URL, `Authorization: Bearer SMS_TOKEN`, JSON
 * `{ to, text }`; any 2xx means taken. Redirects are not followed (the token would go along).
 */
export class HttpSmsDriver implements SmsDriver {
  constructor(private readonly options: { url: string; token: string; timeoutMs?: number }) {}

  async send(to: string, text: string): Promise<void> {
    let res: Response;
    try {
      res = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.options.token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify({ to, text }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? SMS_TIMEOUT_MS),
      });
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'failed';
      throw new Error(`The SMS provider request ${reason}: ${String(err)}`, { cause: err });
    }
    // The answer is read whole so the connection can be reused; a little of it says why.
    const body = await res.text().catch(() => '');
    if (res.ok) return;
    const what = `The SMS provider answered ${res.status}${body === '' ? '' : `: ${cutText(body.trim(), 200)}`}`;
    if (refusedForGood(res.status)) throw new PermanentDeliveryError(what);
    throw new Error(what);
  }
}

/**
 * Without SMS_URL: each SMS is appended as a JSON line to DATA_DIR/sms/outbox.jsonl (0600: phone
 * numbers) and logged, so a demo install shows what would have gone out.
 */
export class FileSmsDriver implements SmsDriver {
  readonly file: string;

  constructor(
    dataDir: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(dataDir, 'sms', 'outbox.jsonl');
  }

  async send(to: string, text: string): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const line = JSON.stringify({ at: new Date(this.now()).toISOString(), to, text });
    await fs.appendFile(this.file, `${line}\n`, { mode: 0o600 });
    this.log.info('sms written to file (no SMS_URL set)', { to, file: this.file });
  }
}

/** Alarm SMS through a driver: the provider over HTTP, or the outbox file. */
export class SmsChannel implements Channel {
  readonly name = 'sms' as const;

  constructor(private readonly driver: SmsDriver) {}

  async send(to: Recipient, message: OutgoingMessage): Promise<SendOutcome> {
    if (to.phone === null || to.phone.trim() === '') {
      return { kind: 'skipped', reason: 'no phone number' };
    }
    await this.driver.send(to.phone.trim(), smsText(message));
    return { kind: 'sent' };
  }
}
