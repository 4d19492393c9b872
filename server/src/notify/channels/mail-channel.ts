import type { Mailer } from '../../services/mail.service';
import {
  PermanentDeliveryError,
  type Channel,
  type OutgoingMessage,
  type Recipient,
  type SendOutcome,
} from '../contract';

/** What nodemailer's errors carry (smtp-connection `_formatError`). */
interface SmtpError {
  readonly code?: unknown;
  readonly command?: unknown;
  readonly responseCode?: unknown;
}

/**
 * A refusal that sending again cannot mend: the SMTP server refused the recipient for good (5xx
 * on RCPT TO), or nodemailer found the address unusable before sending ('Invalid recipient').
 * A 4xx (mailbox busy, greylisting), a refused sender, a dropped connection or a time-out are
 * worth another try.
 */
export function isRecipientRefused(err: unknown): boolean {
  const e = (err ?? {}) as SmtpError;
  if (e.code !== 'EENVELOPE') return false;
  if (e.command === 'API') return true;
  return (
    e.command === 'RCPT TO' &&
    typeof e.responseCode === 'number' &&
    e.responseCode >= 500 &&
    e.responseCode < 600
  );
}

/** The mail's body: the message's text and the link to open, on a line of its own. */
export function mailText(message: OutgoingMessage): string {
  return message.text.includes(message.url)
    ? message.text
    : `${message.text.trimEnd()}\n\n${message.url}\n`;
}

/** Alarm mail through the server's Mailer (SMTP_URL, or .eml files in DATA_DIR/mail without it). */
export class MailChannel implements Channel {
  readonly name = 'mail' as const;

  constructor(private readonly mailer: Mailer) {}

  async send(to: Recipient, message: OutgoingMessage): Promise<SendOutcome> {
    if (to.email === null || to.email.trim() === '') {
      return { kind: 'skipped', reason: 'no e-mail address' };
    }
    try {
      await this.mailer.send({ to: to.email, subject: message.subject, text: mailText(message) });
    } catch (err) {
      if (isRecipientRefused(err)) {
        throw new PermanentDeliveryError(
          `The mail server refused ${to.email}: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      }
      throw err;
    }
    return { kind: 'sent' };
  }
}
