import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  fileModel,
  THREED_TEXTS,
  threedmodelAttributesSchema,
  threedmodelModel,
  type FileAttributes,
  type ModelUpdate,
  type ThreedLevel,
  type ThreedmodelAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { keepBytes, type BlobStore } from '../files/blob-store';
import type { Logger } from '../logger';
import type { ChangeFeed } from '../services/change-feed';
import type { ModelService } from '../services/model.service';
import type { ConvertOutcome } from './convert';
import { convertOnThread, DEFAULT_THREAD_LIMITS, type ThreadLimits } from './convert-thread';
import { StateQueue } from './state-queue';

/*
 * Processes uploaded 3D models in the background (DESIGN.md §13, issue 32 item 2), once in the
 * cluster (the leader's work, like the reports): a model whose files are all stored is taken
 * ('processing', its progress an attribute of the model: synced like any change, so every tab
 * and device that shows the model's tile follows it; the upload topic is the files'), converted
 * on a thread of its
 * own (convert-thread.ts), and its levels and thumbnail stored as files of kind 'level' of its
 * asset; then 'ready' with them, or 'failed' with the reason. One model at a time: a conversion
 * may take a core and gigabytes. A model left 'processing' by a process that ended is taken again
 * at the next start.
 */

export interface ModelProcessorDeps {
  readonly db: Db;
  readonly models: ModelService;
  readonly blobs: BlobStore;
  readonly feed: ChangeFeed;
  readonly log: Logger;
  /** Where a model's files are gathered while it is processed (emptied at start). */
  readonly workDir: string;
  readonly limits?: ThreadLimits;
  /** How often the models waiting are looked for besides the changes heard (ms). */
  readonly scanMs?: number;
}

const SCAN_MS = 30_000;
/** The model's progress is written at most this often (each write is a logged update). */
const PROGRESS_EVERY_MS = 500;

export class ModelProcessor extends StateQueue {
  private current: (() => Promise<void>) | undefined;

  constructor(private readonly deps: ModelProcessorDeps) {
    super({
      db: deps.db,
      feed: deps.feed,
      log: deps.log,
      type: threedmodelModel.type,
      waiting: 'uploaded',
      working: 'processing',
      concerns: concernsModels,
      scanMs: deps.scanMs ?? SCAN_MS,
      what: '3D processing',
    });
  }

  protected override async onStart(): Promise<void> {
    await rm(this.deps.workDir, { recursive: true, force: true });
  }

  protected override async interrupt(): Promise<void> {
    await this.current?.();
  }

  protected override take(accountId: string, id: string): Promise<void> {
    return this.process(accountId, id);
  }

  /** The stored model, or undefined once deleted. */
  private async model(accountId: string, id: string): Promise<ThreedmodelAttributes | undefined> {
    const row = await this.rows.find(accountId, threedmodelModel.type, id);
    return row === undefined
      ? undefined
      : threedmodelAttributesSchema.parse(JSON.parse(row.attributes));
  }

  private async process(accountId: string, id: string): Promise<void> {
    const model = await this.model(accountId, id);
    if (model === undefined) return;
    // Its files, as stored: each a 3D model file of its asset (checked on write, and again here).
    const sources: { path: string; sha256: string }[] = [];
    for (const source of model.sources) {
      const row = await this.rows.find(accountId, fileModel.type, source.file_id);
      const file = row === undefined ? undefined : (JSON.parse(row.attributes) as FileAttributes);
      // Stored before templates had models, a file names no template (undefined).
      if (
        file === undefined ||
        (file.asset_id ?? null) !== model.asset_id ||
        (file.template_id ?? null) !== model.template_id
      ) {
        await this.fail(accountId, id, THREED_TEXTS.sourceMissing);
        return;
      }
      // Still uploading: taken when its last file is stored.
      if (file.state !== 'ready') return;
      sources.push({ path: source.path, sha256: file.sha256 });
    }
    await this.set(accountId, id, { state: 'processing', progress: 0.05, reason: null });
    await mkdir(this.deps.workDir, { recursive: true });
    const dir = await mkdtemp(path.join(this.deps.workDir, 'model-'));
    try {
      for (const source of sources) {
        const target = path.join(dir, ...source.path.split('/'));
        await mkdir(path.dirname(target), { recursive: true });
        await pipeline(this.deps.blobs.open(accountId, source.sha256), createWriteStream(target));
      }
      let written = 0;
      const run = convertOnThread(
        dir,
        (share) => {
          const now = Date.now();
          if (now - written < PROGRESS_EVERY_MS) return;
          written = now;
          void this.set(accountId, id, { progress: share }).catch(() => undefined);
        },
        this.deps.limits ?? DEFAULT_THREAD_LIMITS,
      );
      this.current = run.stop;
      const outcome = await run.outcome;
      if (this.stopped && 'refused' in outcome) return;
      await this.finish(accountId, id, model, outcome);
    } finally {
      this.current = undefined;
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async finish(
    accountId: string,
    id: string,
    model: ThreedmodelAttributes,
    outcome: ConvertOutcome,
  ): Promise<void> {
    if ('refused' in outcome) {
      if (outcome.cause !== undefined)
        this.deps.log.warn('3D model processing failed', { model: id, cause: outcome.cause });
      await this.fail(accountId, id, outcome.refused);
      return;
    }
    // Deleted while it was processed: nothing of it is kept.
    if ((await this.model(accountId, id)) === undefined) return;
    const made = outcome.ok;
    const levels: ThreedLevel[] = [];
    for (const level of made.levels) {
      const file = await this.keepFile(accountId, model, {
        name: `${model.name} (${level.quality}).glb`,
        type: 'model/gltf-binary',
        bytes: level.glb,
      });
      levels.push({
        quality: level.quality,
        file_id: file,
        triangles: level.triangles,
        bytes: level.glb.byteLength,
      });
    }
    const thumbnail = await this.keepFile(accountId, model, {
      name: `${model.name}.png`,
      type: 'image/png',
      bytes: made.thumbnail,
    });
    await this.set(accountId, id, {
      state: 'ready',
      progress: 1,
      reason: null,
      format: made.format,
      levels,
      bounds: made.bounds,
      thumbnail_file_id: thumbnail,
    });
  }

  /** Stores bytes as a ready file of kind 'level' of the model's asset; answers its id. */
  private async keepFile(
    accountId: string,
    model: ThreedmodelAttributes,
    file: { name: string; type: string; bytes: Uint8Array },
  ): Promise<string> {
    const sha256 = await keepBytes(this.deps.blobs, accountId, file.bytes);
    const made = await this.deps.models.serverCreate(accountId, fileModel.collection, {
      asset_id: model.asset_id,
      template_id: model.template_id,
      kind: 'level',
      name: file.name.slice(0, 250),
      type: file.type,
      size: file.bytes.byteLength,
      sha256,
      state: 'ready',
    });
    return made.id;
  }

  private async fail(accountId: string, id: string, reason: string): Promise<void> {
    this.deps.log.warn('3D model refused', { accountId, id, reason });
    await this.set(accountId, id, { state: 'failed', progress: 0, reason });
  }

  private async set(
    accountId: string,
    id: string,
    changes: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.deps.models.serverUpdate(accountId, threedmodelModel.collection, id, changes);
    } catch (err) {
      // Deleted meanwhile: nothing to say.
      if ((await this.rows.find(accountId, threedmodelModel.type, id)) !== undefined) throw err;
    }
  }
}

/** Whether updates may mean a model to process: a 3D model made, or a file stored. */
function concernsModels(update: ModelUpdate): boolean {
  if (update.action === 'child_created') return update.child_type === threedmodelModel.type;
  return update.type === fileModel.type && update.action !== 'item_deleted';
}
