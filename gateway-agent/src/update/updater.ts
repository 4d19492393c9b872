import { createHash, createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  API_BASE,
  gatewayBrokerLogin,
  releaseSigningText,
  type GatewayConfig,
  type GatewayUpdate,
  type GatewayUpdateReport,
} from '@plant/shared-schema';
import type { Logger } from '../logger';
import { readInstallState, versionsDir, writeInstallState } from './install-state';

/*
 * The agent's half of a rollout (DESIGN.md §15, issue 35 item 4). Its configuration names the
 * version wanted of it (`update`); the agent downloads it with its own login, checks its SHA-256
 * and the Ed25519 signature with the account's release key (pinned at first sight: a changed key
 * is refused), installs it beside the running version (`versions/<version>/agent.mjs`), writes it
 * as `current` on trial and asks its launcher for a restart. The new version, once healthy
 * (broker reached, each connection read), ends the trial and reports `succeeded`; the launcher
 * rolls back one that stops or stays unhealthy, and the previous version reports `rolled_back`.
 * A file that fails its checks is never installed: `failed`, with why, and that rollout is not
 * tried again. Points read meanwhile stay in the buffer, which every version shares.
 */

export interface UpdaterDeps {
  readonly dataDir: string;
  readonly gatewayId: string;
  readonly key: string;
  /** The server's HTTP origin (the broker URL's). */
  readonly serverUrl: string;
  readonly version: string;
  readonly log: Logger;
  /** Sends a report on up/update; false when not connected. */
  readonly report: (report: GatewayUpdateReport) => boolean;
  /** Whether this version is healthy: the broker reached and each enabled connection read. */
  readonly healthy: () => boolean;
  /** The machine's last value of a stream (the idle check), undefined when none read yet. */
  readonly lastValue: (datastreamId: string) => unknown;
  /** Stops the agent and asks the launcher to start the version installed. */
  readonly restart: () => void;
}

/** The release key first seen, pinned (in the data folder). */
const KEY_FILE = 'release-key.json';

export class Updater {
  private busy: string | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: UpdaterDeps) {}

  /** A configuration arrived (the broker is reached): what it wants of this gateway. */
  configured(config: GatewayConfig): void {
    const update = config.update;
    if (update === null || this.stopped) return;
    const state = readInstallState(this.deps.dataDir);
    // An outcome this version still has to tell (a rollback by the launcher, a refused file).
    if (state.outcome?.deployment_id === update.deployment_id) {
      this.send(update, state.outcome.state, state.outcome.message);
      return;
    }
    if (state.failed.includes(update.deployment_id)) return;
    if (update.version === this.deps.version) {
      this.whenHealthy(update);
      return;
    }
    if (update.target !== 'agent') {
      this.refuse(update, 'This agent installs agent versions only.');
      return;
    }
    if (this.busy === update.deployment_id) return;
    this.busy = update.deployment_id;
    void this.install(update, config.release_key).finally(() => {
      if (this.busy === update.deployment_id) this.busy = undefined;
    });
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.healthTimer);
    clearTimeout(this.idleTimer);
  }

  /** Runs the wanted version: once healthy, its trial ends and it says so. */
  private whenHealthy(update: GatewayUpdate): void {
    clearTimeout(this.healthTimer);
    const check = () => {
      if (this.stopped) return;
      if (!this.deps.healthy()) {
        this.healthTimer = setTimeout(check, 250);
        return;
      }
      const state = readInstallState(this.deps.dataDir);
      if (state.trial !== null) {
        writeInstallState(this.deps.dataDir, { ...state, trial: null });
        this.deps.log.info('the new version is healthy', { version: this.deps.version });
      }
      this.send(update, 'succeeded', null);
    };
    check();
  }

  private send(update: GatewayUpdate, state: GatewayUpdateReport['state'], message: string | null) {
    this.deps.report({
      deployment_id: update.deployment_id,
      state,
      version: this.deps.version,
      message,
    });
  }

  /** Refused without installing: said once, never tried again. */
  private refuse(update: GatewayUpdate, message: string): void {
    this.deps.log.warn('the wanted version is refused', { version: update.version, why: message });
    const state = readInstallState(this.deps.dataDir);
    writeInstallState(this.deps.dataDir, {
      ...state,
      failed: [...state.failed.slice(-99), update.deployment_id],
      outcome: { deployment_id: update.deployment_id, state: 'failed', message },
    });
    this.send(update, 'failed', message);
  }

  private async install(update: GatewayUpdate, key: GatewayConfig['release_key']): Promise<void> {
    const { log } = this.deps;
    const pinned = this.pinnedKey(key);
    if (typeof pinned === 'string') {
      this.refuse(update, pinned);
      return;
    }
    this.send(update, 'downloading', null);
    const dir = path.join(versionsDir(this.deps.dataDir), safeName(update.version));
    const file = path.join(dir, 'agent.mjs');
    const part = `${file}.part`;
    let problem: string | undefined;
    try {
      fs.mkdirSync(dir, { recursive: true });
      problem = await this.download(update, part);
    } catch (err) {
      problem = `The download failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (problem === undefined && !signedBy(update, pinned.publicKey))
      problem = 'The file’s signature does not match the account’s release key.';
    if (problem !== undefined) {
      fs.rmSync(part, { force: true });
      this.refuse(update, problem);
      return;
    }
    if (this.stopped) return;
    // Installed beside the running version; its packages are the installation's.
    fs.renameSync(part, file);
    linkPackages(versionsDir(this.deps.dataDir));
    if (update.idle !== null) await this.untilIdle(update.idle);
    if (this.stopped) return;
    this.send(update, 'installing', null);
    const state = readInstallState(this.deps.dataDir);
    writeInstallState(this.deps.dataDir, {
      ...state,
      previous: state.current ?? { version: this.deps.version, entry: '' },
      current: { version: update.version, entry: file },
      trial: { deployment_id: update.deployment_id, version: update.version, since: Date.now() },
      outcome: null,
    });
    log.info('restarting into the new version', { from: this.deps.version, to: update.version });
    this.deps.restart();
  }

  /** Downloads the artifact into `file`, counting and hashing as it comes; a problem's words. */
  private async download(update: GatewayUpdate, file: string): Promise<string | undefined> {
    const login = gatewayBrokerLogin(this.deps.gatewayId).username;
    const auth = Buffer.from(`${login}:${this.deps.key}`).toString('base64');
    const answer = await fetch(`${this.deps.serverUrl}${API_BASE}/${update.artifact_path}`, {
      headers: { Authorization: `Basic ${auth}` },
    });
    if (!answer.ok || answer.body === null)
      return `The download failed: the server answered ${answer.status}.`;
    const hash = createHash('sha256');
    let size = 0;
    const out = fs.createWriteStream(file, { mode: 0o600 });
    try {
      for await (const chunk of Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>)) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        if (size > update.size) return 'The file is larger than the release says.';
        hash.update(bytes);
        if (!out.write(bytes)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
    } finally {
      await new Promise<void>((resolve) => out.end(() => resolve()));
    }
    if (hash.digest('hex') !== update.sha256)
      return 'The file’s SHA-256 does not match the release.';
    return undefined;
  }

  /** The account's release key: the one first seen, kept; a different one is refused. */
  private pinnedKey(key: GatewayConfig['release_key']): { publicKey: string } | string {
    const file = path.join(this.deps.dataDir, KEY_FILE);
    let known: { public_key: string; key_id: string } | undefined;
    try {
      known = JSON.parse(fs.readFileSync(file, 'utf8')) as { public_key: string; key_id: string };
    } catch {
      known = undefined;
    }
    if (known !== undefined) {
      if (key !== null && key.key_id !== known.key_id)
        return 'The release key changed: this gateway trusts the one it was first given.';
      return { publicKey: known.public_key };
    }
    if (key === null) return 'No release key came with the version.';
    fs.mkdirSync(this.deps.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(key), { mode: 0o600 });
    return { publicKey: key.public_key };
  }

  /** Until the machine's stream says idle (checked every second). */
  private untilIdle(idle: NonNullable<GatewayUpdate['idle']>): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.stopped || this.deps.lastValue(idle.datastream_id) === idle.value) {
          resolve();
          return;
        }
        this.idleTimer = setTimeout(check, 1_000);
      };
      check();
    });
  }
}

function signedBy(update: GatewayUpdate, publicKey: string): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.from(publicKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
    const text = releaseSigningText({
      accountId: update.account_id,
      id: update.release_id,
      target: update.target,
      name: update.name,
      version: update.version,
      sha256: update.sha256,
    });
    return verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(update.signature, 'base64'));
  } catch {
    return false;
  }
}

/** A version as a folder name: its own characters only. */
function safeName(version: string): string {
  return version.replace(/[^0-9A-Za-z.+-]/g, '_');
}

/**
 * The installed versions find the installation's packages: `versions/node_modules` links to the
 * node_modules this agent's own packages come from.
 */
function linkPackages(dir: string): void {
  const link = path.join(dir, 'node_modules');
  if (fs.existsSync(link)) return;
  const mqtt = createRequire(import.meta.url).resolve('mqtt/package.json');
  const modules = path.dirname(path.dirname(mqtt));
  fs.symlinkSync(modules, link, 'dir');
}
