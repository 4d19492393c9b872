import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';
import type { Logger } from '../../logger';

/** The server's web-push identity (RFC 8292): P-256, both halves base64url. */
export interface VapidKeys {
  /** The uncompressed public point (65 bytes): browsers' `applicationServerKey`. */
  readonly publicKey: string;
  /** The private scalar (32 bytes). */
  readonly privateKey: string;
}

export const VAPID_FILE = 'vapid.json';

/** Throws unless the pair is a P-256 key pair whose halves belong together. */
function checked(value: unknown, file: string): VapidKeys {
  const keys = value as Partial<Record<keyof VapidKeys, unknown>> | null;
  const pub = typeof keys?.publicKey === 'string' ? keys.publicKey : '';
  const priv = typeof keys?.privateKey === 'string' ? keys.privateKey : '';
  let matches: boolean;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(priv, 'base64url'));
    matches = Buffer.from(pub, 'base64url').equals(ecdh.getPublicKey());
  } catch {
    matches = false;
  }
  if (!matches || Buffer.from(priv, 'base64url').length !== 32) {
    throw new Error(
      `${file} does not hold a VAPID key pair; restore it from a backup (deleting it makes new ` +
        'keys, and every browser must subscribe to push again)',
    );
  }
  return { publicKey: pub, privateKey: priv };
}

/**
 * The VAPID keys of this installation, made at first start and kept in DATA_DIR/vapid.json (mode
 * 0600; never a default in code). Browsers subscribe with the public key, so it must survive
 * restarts: a new key would silently end every subscription. Processes starting together on one
 * DATA_DIR agree: the file appears whole (written aside, then linked into place, which fails when
 * another process was first) and the loser reads the winner's.
 */
export async function loadVapidKeys(dataDir: string, log: Logger): Promise<VapidKeys> {
  const file = path.join(dataDir, VAPID_FILE);
  const read = async (): Promise<VapidKeys | undefined> => {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const keys = checked(parsed, file);
    if (((await fs.stat(file)).mode & 0o077) !== 0) {
      await fs.chmod(file, 0o600);
      log.warn('VAPID key file was readable by others; made it 0600', { file });
    }
    return keys;
  };

  const existing = await read();
  if (existing !== undefined) return existing;

  await fs.mkdir(dataDir, { recursive: true });
  const made = webpush.generateVAPIDKeys();
  const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await fs.writeFile(aside, `${JSON.stringify(made)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(aside, file);
    log.info('VAPID keys made for web push', { file });
    return checked(made, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const theirs = await read();
    if (theirs === undefined) throw err;
    return theirs;
  } finally {
    await fs.rm(aside, { force: true });
  }
}
