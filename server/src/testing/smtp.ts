import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface Received {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback that keeps what it receives. `refuse` answers the reply code
 * (550 for good, 450 for now) with which it refuses a recipient, or undefined to take it.
 */
export async function startSmtp(
  options: {
    readonly refuse?: (address: string) => { code: number; text: string } | undefined;
  } = {},
) {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refused = options.refuse?.(address.address);
      if (refused === undefined) return callback();
      return callback(Object.assign(new Error(refused.text), { responseCode: refused.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    inbox,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The mail's text with quoted-printable soft breaks and escapes undone. */
export function decoded(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
