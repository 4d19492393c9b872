import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../logger';

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** Files sent with it (a report's PDF and CSV). */
  readonly attachments?: readonly {
    readonly filename: string;
    readonly content: Buffer;
    readonly contentType: string;
  }[];
}

/**
 * Sends mail to SMTP_URL. Without SMTP_URL each mail is written as an .eml file under
 * DATA_DIR/mail and a log line says where, so that a demo install can still reset passwords.
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    private readonly options: { smtpUrl: string | undefined; from: string; dataDir: string },
    private readonly log: Logger,
  ) {
    this.transport =
      options.smtpUrl !== undefined
        ? nodemailer.createTransport(options.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: Mail): Promise<void> {
    const { attachments, ...plain } = mail;
    const info: unknown = await this.transport.sendMail({
      from: this.options.from,
      ...plain,
      ...(attachments === undefined ? {} : { attachments: attachments.map((a) => ({ ...a })) }),
    });
    if (this.options.smtpUrl !== undefined) {
      this.log.info('mail sent', { to: mail.to, subject: mail.subject });
      return;
    }
    const message = (info as { message?: unknown }).message;
    if (!Buffer.isBuffer(message)) throw new Error('mail stream transport gave no message buffer');
    const dir = path.join(this.options.dataDir, 'mail');
    await fs.mkdir(dir, { recursive: true });
    const safeTo = mail.to.replace(/[^a-z0-9@._-]/gi, '_');
    const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
    await fs.writeFile(file, message, { mode: 0o600 });
    this.log.info('mail written to file (no SMTP_URL set)', { to: mail.to, file });
  }

  close(): void {
    this.transport.close();
  }
}
