import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The mails a test server without SMTP_URL wrote to `to` (DATA_DIR/mail/*.eml), oldest first,
 * decoded (quoted-printable soft breaks and escapes).
 */
export async function mailsTo(dataDir: string, to: string): Promise<string[]> {
  const dir = path.join(dataDir, 'mail');
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    names
      .filter((n) => n.endsWith(`-${to}.eml`))
      .sort()
      .map((n) => fs.readFile(path.join(dir, n), 'utf8')),
  );
  return mails.map((raw) =>
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  );
}
