import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/*
 * Each account's release key (DESIGN.md §15): an Ed25519 pair made at the account's first release,
 * its private half only in DATA_DIR/release-keys/<account>.pem (mode 0600, never in the database,
 * never a default in code). The server signs each released artifact with it; an agent checks the
 * signature with the public half it was given with its configuration. Processes sharing a DATA_DIR
 * agree on one key: the file appears whole (written aside, then linked into place, which fails for
 * the second process, which then reads the first's).
 */

export interface ReleaseKey {
  /** The public half: SPKI DER, base64. */
  readonly publicKey: string;
  /** The SHA-256 of the public half's DER, hex: the name a signature is checked by. */
  readonly keyId: string;
  /** The Ed25519 signature of the text (UTF-8), base64. */
  sign(text: string): string;
}

export class ReleaseKeys {
  private readonly made = new Map<string, Promise<ReleaseKey>>();

  constructor(private readonly dir: string) {}

  /** The account's key, made at the first call (and kept from then on). */
  of(accountId: string): Promise<ReleaseKey> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(accountId)) throw new Error('not an account id');
    let key = this.made.get(accountId);
    if (key === undefined) {
      key = this.load(accountId);
      this.made.set(accountId, key);
      key.catch(() => this.made.delete(accountId));
    }
    return key;
  }

  /** The account's public key if it has one (an account that never released has none). */
  async publicOf(accountId: string): Promise<ReleaseKey | undefined> {
    try {
      await fs.access(this.file(accountId));
    } catch {
      return undefined;
    }
    return this.of(accountId);
  }

  private file(accountId: string): string {
    return path.join(this.dir, `${accountId}.pem`);
  }

  private async load(accountId: string): Promise<ReleaseKey> {
    const file = this.file(accountId);
    const existing = await readKey(file);
    if (existing !== undefined) return keyOf(existing);
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(aside, pem, { mode: 0o600, flag: 'wx' });
    try {
      await fs.link(aside, file);
      return keyOf(privateKey);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const theirs = await readKey(file);
      if (theirs === undefined) throw err;
      return keyOf(theirs);
    } finally {
      await fs.rm(aside, { force: true });
    }
  }
}

async function readKey(file: string): Promise<KeyObject | undefined> {
  let pem: string;
  try {
    pem = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`${file} does not hold an Ed25519 key; restore it from a backup`);
  if (((await fs.stat(file)).mode & 0o077) !== 0) await fs.chmod(file, 0o600);
  return key;
}

function keyOf(privateKey: KeyObject): ReleaseKey {
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return {
    publicKey: der.toString('base64'),
    keyId: createHash('sha256').update(der).digest('hex'),
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64'),
  };
}
