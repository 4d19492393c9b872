import {
  fileModel,
  renderingAttributesSchema,
  renderingModel,
  SCENE_TEXTS,
  sceneAttributesSchema,
  sceneModel,
  threedmodelAttributesSchema,
  threedmodelModel,
  type FileAttributes,
  type ModelUpdate,
  type RenderingAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { keepBytes, type BlobStore } from '../files/blob-store';
import type { Logger } from '../logger';
import type { ChangeFeed } from '../services/change-feed';
import type { ModelService } from '../services/model.service';
import { NoBrowser, type RenderedModel, type SceneRenderer } from './scene-renderer';
import { StateQueue } from './state-queue';

/*
 * Makes the renderings users ask for (issue 32 item 5), in the background, once in the cluster:
 * a rendering waiting is taken ('rendering'), its scene's models drawn at their high level from
 * the rendering's view by the server's Chromium (scene-renderer.ts), and the picture stored as a
 * PNG file of the asset (kind 'level': a file the server made of its 3D models); then 'ready'
 * with the file, or 'failed' with the reason. Every tab showing the scene sees it change.
 */

/** The levels a rendering reads, together (each is held in memory while drawn). */
const RENDER_MAX_BYTES = 500 * 1024 * 1024;

/** A scene whose models together pass RENDER_MAX_BYTES. */
class TooLarge extends Error {}

export interface RenderingProcessorDeps {
  readonly db: Db;
  readonly models: ModelService;
  readonly blobs: BlobStore;
  readonly feed: ChangeFeed;
  readonly log: Logger;
  readonly renderer: SceneRenderer;
  readonly scanMs?: number;
}

export class RenderingProcessor extends StateQueue {
  constructor(private readonly deps: RenderingProcessorDeps) {
    super({
      db: deps.db,
      feed: deps.feed,
      log: deps.log,
      type: renderingModel.type,
      waiting: 'waiting',
      working: 'rendering',
      concerns: (update: ModelUpdate) =>
        update.action === 'child_created' && update.child_type === renderingModel.type,
      scanMs: deps.scanMs ?? 60_000,
      what: 'rendering',
    });
  }

  protected override async interrupt(): Promise<void> {
    await this.deps.renderer.close();
  }

  protected override async take(accountId: string, id: string): Promise<void> {
    const rendering = await this.read(
      accountId,
      renderingModel.type,
      id,
      renderingAttributesSchema,
    );
    if (rendering === undefined) return;
    try {
      const models = await this.sceneModels(accountId, rendering);
      // A model still processing: the rendering waits for it (the next scan takes it again).
      if (models === 'later') return;
      await this.set(accountId, id, { state: 'rendering', reason: null });
      const png = await this.deps.renderer.render({
        models,
        camera: rendering.camera,
        width: rendering.width,
        height: rendering.height,
      });
      if (this.stopped) return;
      // Deleted while it was drawn: nothing is kept.
      if ((await this.rows.find(accountId, renderingModel.type, id)) === undefined) return;
      const sha256 = await keepBytes(this.deps.blobs, accountId, png);
      const file = await this.deps.models.serverCreate(accountId, fileModel.collection, {
        asset_id: rendering.asset_id,
        kind: 'level',
        name: `${rendering.name}.png`.slice(0, 250),
        type: 'image/png',
        size: png.byteLength,
        sha256,
        state: 'ready',
      });
      await this.set(accountId, id, { state: 'ready', file_id: file.id, reason: null });
    } catch (err) {
      if (this.stopped) return;
      const reason =
        err instanceof NoBrowser
          ? SCENE_TEXTS.noBrowser
          : err instanceof TooLarge
            ? SCENE_TEXTS.tooLargeToRender
            : SCENE_TEXTS.renderFailed;
      this.deps.log.warn('rendering failed', { accountId, id, error: String(err) });
      await this.set(accountId, id, { state: 'failed', reason });
    }
  }

  /** The scene's processed models where it places them, each at its high level's bytes. */
  private async sceneModels(
    accountId: string,
    rendering: RenderingAttributes,
  ): Promise<RenderedModel[] | 'later'> {
    const scene = await this.read(
      accountId,
      sceneModel.type,
      rendering.scene_id,
      sceneAttributesSchema,
    );
    const models: RenderedModel[] = [];
    let bytes = 0;
    for (const placed of scene?.models ?? []) {
      const model = await this.read(
        accountId,
        threedmodelModel.type,
        placed.threedmodel_id,
        threedmodelAttributesSchema,
      );
      if (model?.state === 'uploaded' || model?.state === 'processing') return 'later';
      const level = model?.levels.find((l) => l.quality === 'high') ?? model?.levels[0];
      if (model?.state !== 'ready' || level === undefined) continue;
      bytes += level.bytes;
      if (bytes > RENDER_MAX_BYTES) throw new TooLarge();
      const row = await this.rows.find(accountId, fileModel.type, level.file_id);
      if (row === undefined) continue;
      const { sha256 } = JSON.parse(row.attributes) as FileAttributes;
      const chunks: Buffer[] = [];
      for await (const chunk of this.deps.blobs.open(accountId, sha256))
        chunks.push(chunk as Buffer);
      models.push({
        glb: new Uint8Array(Buffer.concat(chunks)),
        position: placed.position,
        rotation: placed.rotation,
        flipX: placed.flip_x,
      });
    }
    return models;
  }

  private async read<T>(
    accountId: string,
    type: string,
    id: string,
    schema: { parse: (value: unknown) => T },
  ): Promise<T | undefined> {
    const row = await this.rows.find(accountId, type, id);
    return row === undefined ? undefined : schema.parse(JSON.parse(row.attributes));
  }

  private async set(accountId: string, id: string, changes: Record<string, unknown>) {
    try {
      await this.deps.models.serverUpdate(accountId, renderingModel.collection, id, changes);
    } catch (err) {
      // Deleted meanwhile: nothing to say.
      if ((await this.rows.find(accountId, renderingModel.type, id)) !== undefined) throw err;
    }
  }
}
