import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The key's file in DATA_DIR: 32 random bytes, base64, mode 0600. */
export const INTEGRATION_KEY_FILE = 'integration-key';

/**
 * Seals the webhooks' signing secrets (AES-256-GCM) with a key kept beside the database, not in
 * it: an HMAC needs the secret itself, so it cannot be stored hashed like a password, and a copy
 * of the database alone (a dump, a backup of Postgres) then reveals none. The key is made at the
 * first need (never a default in code), written aside and linked into place like the VAPID keys,
 * so processes sharing a DATA_DIR agree on one. A database moved without its DATA_DIR keeps
 * secrets nobody can read: `open` then answers undefined and the webhook needs a new secret.
 */
export class SecretBox {
  private key: Promise<Buffer> | undefined;

  constructor(private readonly dataDir: string) {}

  /** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
  async seal(plain: string): Promise<string> {
    const key = await this.loaded();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((p) => p.toString('base64url')).join('.');
  }

  /** The plain text, or undefined when this key did not seal it (or it was changed). */
  async open(sealed: string): Promise<string | undefined> {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined)
      return undefined;
    const key = await this.loaded();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  private loaded(): Promise<Buffer> {
    if (this.key === undefined) {
      const made = this.load();
      made.catch(() => {
        if (this.key === made) this.key = undefined;
      });
      this.key = made;
    }
    return this.key;
  }

  private async load(): Promise<Buffer> {
    const file = path.join(this.dataDir, INTEGRATION_KEY_FILE);
    const read = async (): Promise<Buffer | undefined> => {
      try {
        const key = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
        if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
        return key;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    };
    const existing = await read();
    if (existing !== undefined) return existing;
    await fs.mkdir(this.dataDir, { recursive: true });
    const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(aside, `${randomBytes(32).toString('base64')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    try {
      await fs.link(aside, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await fs.rm(aside, { force: true });
    }
    const key = await read();
    if (key === undefined) throw new Error(`${file} was not written`);
    return key;
  }
}
