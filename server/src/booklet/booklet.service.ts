import type { ReadStream } from 'node:fs';
import sharp from 'sharp';
import {
  alarmAckModel,
  alarmModel,
  assetModel,
  BOOKLET_LIMITS,
  deploymentGatewayModel,
  deploymentModel,
  fileModel,
  formEntryModel,
  formText,
  formVersionModel,
  releaseModel,
  serviceRequestModel,
  type AlarmAckAttributes,
  type AlarmAttributes,
  type AssetAttributes,
  type BookletKind,
  type DeploymentAttributes,
  type DeploymentGatewayAttributes,
  type FileAttributes,
  type FormEntryAttributes,
  type FormField,
  type FormValue,
  type FormVersionAttributes,
  type Language,
  type ReleaseAttributes,
  type ServiceBookletQuery,
  type ServiceRequestAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { BlobStore } from '../files/blob-store';
import type { Clock } from '../lib/clock';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import type { AccessDecision } from '../services/access-decision';
import { DomainError, forbidden, notFound } from '../services/domain-error';
import type { Session } from '../services/session';
import type {
  BookletAnswer,
  BookletContent,
  BookletField,
  BookletImage,
  BookletItem,
} from './booklet-content';
import { BookletRepository } from './booklet.repository';

/** Draws a booklet's PDF (the PDF thread's `renderBooklet`). */
export type BookletRenderer = (content: BookletContent) => Promise<Buffer>;

/** Booklets being made at once in this process; more wait for the caller to try again. */
const AT_ONCE = 4;
/** The longest side of a picture in the PDF, in pixels (drawn at about 120 pt). */
const PICTURE_PX = 360;
/** A picture is made from its thumbnail, else from its bytes when they are at most this large. */
const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;
const MAX_ORIGINAL_BYTES = 20 * 1024 * 1024;
/** Formats read from a file's own bytes (a thumbnail is WebP made by the server). */
const ORIGINAL_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png']);
/** A service request's description is cut here. */
const DESCRIPTION_CHARS = 600;
/** A gateway's rollout parts read at most. */
const MAX_PARTS = 1000;
/** The answer past AT_ONCE (a text the client already translates). */
const TOO_MANY_BOOKLETS = 'Too many requests. Please try again later.';

/** A model's stored attributes as the reader may see them (its role's field rules). */
function seen<A extends object>(access: AccessDecision, row: ModelRow): Partial<A> {
  return access.project(row.type, JSON.parse(row.attributes) as A & Record<string, unknown>);
}

async function readAll(stream: ReadStream, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * GET assets/{id}/servicebooklet.pdf (issue 37 item 3): the asset's booklet as the screen shows
 * it, read from the store and cut to the reader's own access decision: the asset seen (else 404,
 * as for any asset-scoped read), each kind only with its type's view permission, every model's
 * attributes projected by the reader's field rules, a photo only of the entry that stores it and
 * only when its file is seen. Bounded: the newest BOOKLET_LIMITS.items items and
 * BOOKLET_LIMITS.images pictures, the rest counted in the PDF; at most AT_ONCE booklets at once.
 */
export class BookletService {
  private readonly models: ModelRepository;
  private readonly reads: BookletRepository;
  private busy = 0;

  constructor(
    db: Db,
    private readonly blobs: BlobStore,
    private readonly render: BookletRenderer,
    private readonly clock: Clock,
  ) {
    this.models = new ModelRepository(db);
    this.reads = new BookletRepository(db);
  }

  async pdf(
    session: Session,
    assetId: string,
    query: ServiceBookletQuery,
  ): Promise<{ name: string; bytes: Buffer }> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined) throw forbidden();
    const asset = await this.models.find(accountId, assetModel.type, assetId);
    if (asset === undefined || !session.access.seesModel(assetModel.type, assetId))
      throw notFound('Asset');
    if (this.busy >= AT_ONCE)
      throw new DomainError('rate_limited', TOO_MANY_BOOKLETS, { retryAfterS: 5 });
    this.busy += 1;
    try {
      const content = await this.content(session.access, accountId, asset, query);
      return { name: `${content.asset} service booklet.pdf`, bytes: await this.render(content) };
    } finally {
      this.busy -= 1;
    }
  }

  private async content(
    access: AccessDecision,
    accountId: string,
    asset: ModelRow,
    query: ServiceBookletQuery,
  ): Promise<BookletContent> {
    const attributes = seen<AssetAttributes>(access, asset);
    const permitted: Record<BookletKind, boolean> = {
      entry: access.seesModel(formEntryModel.type, asset.id),
      ack: access.seesModel(alarmAckModel.type, asset.id),
      service: access.seesModel(serviceRequestModel.type, asset.id),
      // Its gateway's updates: release management, and the asset's gateway not hidden from it.
      deployment: access.seesModel(deploymentGatewayModel.type, null) && 'gateway_id' in attributes,
    };
    const kinds = query.kinds.filter((k) => permitted[k]);
    const read = new Reader(access, accountId, asset.id, query.lang, this.models, this.reads);
    const lists = await Promise.all(
      kinds.map(async (kind) => {
        switch (kind) {
          case 'entry':
            return read.entries();
          case 'ack':
            return read.acks();
          case 'service':
            return read.requests();
          case 'deployment':
            return typeof attributes.gateway_id !== 'string'
              ? { items: [], total: 0 }
              : read.updates(attributes.gateway_id);
          default: {
            const never: never = kind;
            throw new Error(`unknown kind ${String(never)}`);
          }
        }
      }),
    );
    const all = lists.flatMap((l) => l.items).sort((a, b) => (b.item.at ?? 0) - (a.item.at ?? 0));
    const kept = all.slice(0, BOOKLET_LIMITS.items);
    const total = lists.reduce((n, l) => n + l.total, 0);
    const pictures = new Pictures(this.models, this.blobs, access, accountId, asset.id);
    const items: BookletItem[] = [];
    for (const { item, files } of kept)
      items.push(files === undefined ? item : await files(pictures));
    return {
      asset: typeof attributes.name === 'string' ? attributes.name : '–',
      lang: query.lang,
      tz: query.tz,
      generatedAt: this.clock.now(),
      kinds,
      withheld: query.kinds.filter((k) => !permitted[k]),
      items,
      omitted: { items: Math.max(0, total - kept.length), images: pictures.omitted },
    };
  }
}

/** An item, and for an entry the step that adds its pictures (only for the items kept). */
interface Read {
  readonly item: BookletItem;
  readonly files?: (pictures: Pictures) => Promise<BookletItem>;
}

/** One booklet's reads of the asset's kinds, each cut to the reader. */
class Reader {
  constructor(
    private readonly access: AccessDecision,
    private readonly accountId: string,
    private readonly assetId: string,
    private readonly lang: Language,
    private readonly models: ModelRepository,
    private readonly reads: BookletRepository,
  ) {}

  private async newest(type: string): Promise<{ rows: ModelRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.reads.newestOfAsset(this.accountId, this.assetId, type, BOOKLET_LIMITS.items),
      this.reads.countOfAsset(this.accountId, this.assetId, type),
    ]);
    return { rows, total };
  }

  /** Models of a type by id, those the reader sees, their attributes projected. */
  private async byId<A extends object>(
    type: string,
    ids: readonly string[],
    assetOf: (row: ModelRow) => string | null = (row) => row.asset_id,
  ): Promise<Map<string, Partial<A>>> {
    const rows = await this.models.findMany(this.accountId, type, [...new Set(ids)]);
    return new Map(
      rows
        .filter((row) => this.access.seesModel(type, assetOf(row)))
        .map((row) => [row.id, seen<A>(this.access, row)]),
    );
  }

  async entries(): Promise<{ items: Read[]; total: number }> {
    const { rows, total } = await this.newest(formEntryModel.type);
    const entries = rows.map((row) => ({ row, a: seen<FormEntryAttributes>(this.access, row) }));
    const versions = await this.byId<FormVersionAttributes>(
      formVersionModel.type,
      entries.flatMap((e) => (e.a.form_version_id === undefined ? [] : [e.a.form_version_id])),
    );
    const items = entries.map(({ row, a }): Read => {
      const version = versions.get(a.form_version_id ?? '');
      const fields = version?.fields ?? [];
      const values = a.values;
      const item = (answer: (f: FormField) => BookletAnswer): BookletItem => ({
        kind: 'entry',
        at: a.filled_at ?? null,
        form:
          version === undefined
            ? null
            : { name: version.name ?? '–', version: version.number ?? 0 },
        fields: values === undefined ? [] : fields.map((f) => this.field(f, answer)),
        answersHidden: values === undefined,
        counter: a.counter_value ?? null,
      });
      const plain = (f: FormField) => answerOf(f, values?.[f.id], this.lang);
      const hasFiles = fields.some((f) => isFileField(f) && fileIds(values?.[f.id]).length > 0);
      return {
        item: item(plain),
        ...(values === undefined || !hasFiles
          ? {}
          : {
              files: async (pictures: Pictures) => {
                const made = new Map<string, BookletAnswer>();
                for (const f of fields) {
                  if (!isFileField(f)) continue;
                  made.set(f.id, await pictures.answer(row.id, f.type, fileIds(values[f.id])));
                }
                return item((f) => made.get(f.id) ?? plain(f));
              },
            }),
      };
    });
    return { items, total };
  }

  private field(f: FormField, answer: (f: FormField) => BookletAnswer): BookletField {
    return { label: formText(f.label, this.lang), answer: answer(f) };
  }

  async acks(): Promise<{ items: Read[]; total: number }> {
    const { rows, total } = await this.newest(alarmAckModel.type);
    const acks = rows.map((row) => seen<AlarmAckAttributes>(this.access, row));
    const alarms = await this.byId<AlarmAttributes>(
      alarmModel.type,
      acks.flatMap((a) => (a.alarm_id === undefined ? [] : [a.alarm_id])),
    );
    const items = acks.map((a): Read => ({
      item: {
        kind: 'ack',
        at: a.at ?? a.raised_at ?? null,
        alarm: alarms.get(a.alarm_id ?? '')?.name ?? null,
        note: a.note ?? '',
      },
    }));
    return { items, total };
  }

  async requests(): Promise<{ items: Read[]; total: number }> {
    const { rows, total } = await this.newest(serviceRequestModel.type);
    const items = rows.map((row): Read => {
      const r = seen<ServiceRequestAttributes>(this.access, row);
      const description = r.description ?? '';
      return {
        item: {
          kind: 'service',
          at: r.reported_at ?? r.changed_at ?? null,
          title: r.title ?? '–',
          state: r.state ?? null,
          description:
            description.length > DESCRIPTION_CHARS
              ? `${description.slice(0, DESCRIPTION_CHARS)}…`
              : description,
        },
      };
    });
    return { items, total };
  }

  /** The updates of the asset's gateway: its parts of rollouts, each naming the release. */
  async updates(gatewayId: string): Promise<{ items: Read[]; total: number }> {
    const rows = await this.reads.newestReferencing(
      this.accountId,
      deploymentGatewayModel.type,
      'gateway_id',
      gatewayId,
      MAX_PARTS,
    );
    const parts = rows.map((row) => seen<DeploymentGatewayAttributes>(this.access, row));
    const rollouts = await this.byId<DeploymentAttributes>(
      deploymentModel.type,
      parts.flatMap((p) => (p.deployment_id === undefined ? [] : [p.deployment_id])),
    );
    const releases = await this.byId<ReleaseAttributes>(
      releaseModel.type,
      [...rollouts.values()].flatMap((d) => (d.release_id === undefined ? [] : [d.release_id])),
    );
    const items = parts.map((p): Read => {
      const release = releases.get(rollouts.get(p.deployment_id ?? '')?.release_id ?? '');
      return {
        item: {
          kind: 'deployment',
          at: p.changed_at ?? null,
          release:
            release === undefined
              ? null
              : [release.name, release.version].filter((x) => x !== undefined).join(' '),
          state: p.state ?? null,
        },
      };
    });
    return { items, total: rows.length };
  }
}

const isFileField = (f: FormField): f is FormField & { type: 'photo' | 'signature' } =>
  f.type === 'photo' || f.type === 'signature';

const fileIds = (value: FormValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];

/** One field's answer as the booklet screen reads it (its `Answer`), without the pictures. */
function answerOf(field: FormField, value: FormValue | undefined, lang: Language): BookletAnswer {
  if (value === undefined || value === null || value === '') return { type: 'empty' };
  switch (field.type) {
    case 'checkbox':
      return { type: 'tick', value: value === true };
    case 'number':
    case 'formula':
      return typeof value === 'number'
        ? { type: 'number', value, unit: field.unit }
        : { type: 'empty' };
    case 'datetime':
      return typeof value === 'number' ? { type: 'time', at: value } : { type: 'empty' };
    case 'select':
    case 'multiselect': {
      const ids = Array.isArray(value) ? value : [String(value)];
      return {
        type: 'options',
        labels: ids.map((id) => {
          const option = field.options.find((o) => o.id === id);
          return option === undefined ? id : formText(option.label, lang);
        }),
      };
    }
    case 'photo':
    case 'signature':
      return { type: 'files', field: field.type, images: [], without: fileIds(value).length };
    case 'text':
      return { type: 'text', text: String(value) };
    default: {
      const never: never = field.type;
      throw new Error(`unknown field type ${String(never)}`);
    }
  }
}

/**
 * The pictures of a booklet's entries, made one at a time (sharp works off the event loop) and
 * counted against BOOKLET_LIMITS.images. A file counts only as the stored entry's own (its parent
 * is that entry, its asset this one) and only when the reader sees it; the answer's ids alone
 * open nothing.
 */
class Pictures {
  omitted = 0;
  private made = 0;

  constructor(
    private readonly models: ModelRepository,
    private readonly blobs: BlobStore,
    private readonly access: AccessDecision,
    private readonly accountId: string,
    private readonly assetId: string,
  ) {}

  async answer(
    entryId: string,
    field: 'photo' | 'signature',
    ids: readonly string[],
  ): Promise<BookletAnswer> {
    const images: BookletImage[] = [];
    let without = 0;
    for (const id of ids) {
      if (this.made >= BOOKLET_LIMITS.images) {
        this.omitted += 1;
        without += 1;
        continue;
      }
      const image = await this.picture(entryId, id);
      if (image === undefined) without += 1;
      else {
        this.made += 1;
        images.push(image);
      }
    }
    return { type: 'files', field, images, without };
  }

  private async picture(entryId: string, fileId: string): Promise<BookletImage | undefined> {
    const row = await this.models.find(this.accountId, fileModel.type, fileId);
    if (
      row === undefined ||
      row.parent_type !== formEntryModel.type ||
      row.parent_id !== entryId ||
      row.asset_id !== this.assetId ||
      !this.access.seesStored(row)
    )
      return undefined;
    const file = seen<FileAttributes>(this.access, row);
    if (file.state !== 'ready' || typeof file.sha256 !== 'string') return undefined;
    try {
      const input = await this.source(file.sha256, file.thumbnail === true);
      if (input === undefined) return undefined;
      const { data, info } = await sharp(input, { limitInputPixels: 50_000_000 })
        .rotate()
        .resize(PICTURE_PX, PICTURE_PX, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      // A copy of its own size: the thread gets these bytes and no pooled buffer around them.
      return { jpeg: new Uint8Array(data), width: info.width, height: info.height };
    } catch {
      // Bytes that do not decode as an image: the answer says a picture is missing.
      return undefined;
    }
  }

  /** The server's thumbnail (WebP, small), else the file's own bytes when PNG or JPEG. */
  private async source(sha256: string, thumbnail: boolean): Promise<Buffer | string | undefined> {
    if (thumbnail) {
      const size = await this.blobs.thumbnailSize(this.accountId, sha256);
      if (size !== undefined && size <= MAX_THUMBNAIL_BYTES)
        return readAll(this.blobs.openThumbnail(this.accountId, sha256), MAX_THUMBNAIL_BYTES);
    }
    const size = await this.blobs.size(this.accountId, sha256);
    if (size === undefined || size > MAX_ORIGINAL_BYTES) return undefined;
    const at = this.blobs.path(this.accountId, sha256);
    const { format } = await sharp(at).metadata();
    return ORIGINAL_FORMATS.has(format) ? at : undefined;
  }
}
