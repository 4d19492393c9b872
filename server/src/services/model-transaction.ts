import {
  addressProblems,
  connectionModel,
  datapointModel,
  gatewayModel,
  TAGNAME_USED,
  fieldErrorsOf,
  gatewayProblems,
  PROTOCOLS,
  settingsProblems,
  type Protocol,
  MODELS,
  assetIdOf,
  modelByType,
  parentIdOf,
  parentOf,
  sortKeyOf,
  uuidv7,
  type GatewayAttributes,
  type ModelDefinition,
  type ModelUpdate,
  type SyncedModel,
  FILE_FIXED,
  FILE_REQUIRED,
  PHOTO_NOT_OF_ASSET,
  fileModel,
  formEntryModel,
  fileProblems,
  type FileAttributes,
  ALARM_TEXTS,
  alarmProblems,
  alarmStreamProblems,
  type AlarmAttributes,
  type DashboardAttributes,
  DASHBOARD_TEXTS,
  alarmModel,
  alarmAckModel,
  type AlarmAckAttributes,
  type DatastreamAttributes,
  reportModel,
  type ReportAttributes,
  FILE_ONLY_SERVER,
  MODEL_FILE_TEXTS,
  THREED_LIMITS,
  THREED_TEXTS,
  threedmodelModel,
  type ThreedmodelAttributes,
  hotspotModel,
  renderingModel,
  RENDERING_LIMITS,
  sceneModel,
  articleModel,
  articleTextModel,
  type ArticleTextAttributes,
  SCENE_TEXTS,
  surfaceTolerance,
  type HotspotAttributes,
  type RenderingAttributes,
  type SceneAttributes,
  templateStreamPlace,
  type TemplateAttributes,
  DEPLOYMENT_TEXTS,
  deploymentGatewayModel,
  deploymentModel,
  type DeploymentAttributes,
  type DeploymentGatewayAttributes,
  releaseModel,
  themeModel,
  jobModel,
  translationModel,
  diagramModel,
  type ReleaseAttributes,
  ticketMessageModel,
  ticketModel,
  serviceRequestModel,
  type ServiceRequestAttributes,
  type TicketAttributes,
  type TicketMessageAttributes,
} from '@plant/shared-schema';
import type { SurfaceCheck } from '../threed/surface';
import type { ReleaseKeys } from '../releases/release-keys';
import { historyNotes, noteReleaseHistory, type HistoryNote } from '../releases/release-history';
import {
  deploymentCreate,
  deploymentUpdate,
  mayWriteDeploymentGateway,
  type PlannedPart,
} from '../releases/deployment-rules';
import {
  mayChangeReleaseFile,
  mayRemoveRelease,
  mayApplyModule,
  releaseCreate,
  releaseUpdate,
  replacedVersions,
} from '../releases/release-rules';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { storedJson, type Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { ConnectionSecretRepository } from '../repositories/connection-secret.repository';
import { ManagedLog } from './managed-log';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import { AccountRepository } from '../repositories/account.repository';
import { AssetAccessRepository } from '../repositories/asset-access.repository';
import type { AccessDecision } from './access-decision';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import { acknowledgeIn, standDownIn, type Acknowledged } from '../alarms/acknowledge';
import { AlarmRepository } from '../repositories/alarm.repository';
import { reportWriteProblems } from '../reports/report-rules';
import { nextRunAt } from '../reports/schedule';
import {
  HELP_TYPES,
  helpProblems,
  indexArticleText,
  linkedArticleProblems,
  nextArticleNumber,
  noteArticleNumber,
  unindexArticleTexts,
} from '../help/article-rules';
import {
  keepServiceAccess,
  serviceCreate,
  serviceUpdate,
  type MachineContextSource,
} from '../service/service-rules';
import {
  afterMessage,
  feedbackCreate,
  mayChangeTicketPhoto,
  mayRemoveFeedback,
  noteTicketSteps,
  ticketUpdate,
} from '../feedback/ticket-rules';
import { jobSlugProblems, mayWriteJobs } from '../public/job-rules';
import {
  changedBySight,
  createdBySight,
  inspectionCreate,
  removedByEditors,
} from '../inspections/inspection-rules';
import { translationKeyProblems } from '../themes/translation-rules';
import { diagramBindingProblems } from '../diagrams/diagram-rules';
import { integrationWriteProblems } from '../integrations/integration-rules';
import { FORM_TYPES, formChange, formCreate, mayChangeEntryFile } from '../forms/form-rules';
import type { CreateRule, NewModel } from './new-model';
import {
  mayChangeThemeFile,
  mayRemoveTheme,
  supersededImages,
  themeFileProblems,
  themeImageProblems,
} from '../themes/theme-rules';

type Draft = Omit<ModelUpdate, 'muid' | 'ts' | 'seq'>;

/** Each area's rules of a new model, in this order (each looks only at the types it knows). */
const CREATE_RULES: readonly CreateRule[] = [
  inspectionCreate,
  formCreate,
  feedbackCreate,
  serviceCreate,
];

/** The update's marker of a model's other owner (registry altParents; a template's otherwise). */
const OWNER_MARKERS: Readonly<Record<string, 'template' | 'article' | 'ticket' | 'release'>> = {
  template: 'template',
  article: 'article',
  ticket: 'ticket',
  release: 'release',
};

/**
 * The types that belong to a template when they have no asset (DESIGN.md §13: its 3D models and
 * scenes, their files, hotspots and renderings): besides their own permission, writing one needs
 * the template's edit permission.
 */
const TEMPLATE_PARTS: ReadonlySet<string> = new Set([
  fileModel.type,
  threedmodelModel.type,
  sceneModel.type,
  hotspotModel.type,
  renderingModel.type,
]);

/**
 * Why a write naming its parent beside an asset that is not the parent's was refused (registry
 * `fromParent`: every copied attribute is an `asset_id`), in the texts the screens know.
 */
function otherAssetText(parentType: string): string {
  if (parentType === alarmModel.parentType) return ALARM_TEXTS.streamOfOtherAsset;
  if (parentType === 'datastreamgroup') return 'The group belongs to another asset.';
  if (parentType === sceneModel.type) return SCENE_TEXTS.sceneOfOtherAsset;
  return `The ${parentType} belongs to another asset.`;
}

/**
 * The level a hotspot's point is measured against (the medium one: within the levels'
 * simplification error of every level), as its file's checksum; undefined when there is none.
 */
export async function surfaceLevelOf(
  models: ModelRepository,
  accountId: string,
  model: ThreedmodelAttributes,
): Promise<string | undefined> {
  const level =
    model.levels.find((l) => l.quality === 'medium') ??
    model.levels.find((l) => l.quality === 'high') ??
    model.levels[0];
  if (level === undefined) return undefined;
  const file = await models.find(accountId, fileModel.type, level.file_id);
  return file === undefined ? undefined : (JSON.parse(file.attributes) as FileAttributes).sha256;
}

/** `asset_was` for an update that moves its subject from one asset to another. */
function movedFrom(before: string | null, after: string | null): { asset_was?: string } {
  return before !== null && before !== after ? { asset_was: before } : {};
}

/**
 * What a write needed of one asset: to see it (an acknowledgement), or to change what belongs to
 * it (`edit`). A write records every need it passed, so that its mutation id, repeated, is
 * answered only while the writer still passes them (ModelService).
 */
/** The three writes of the generic routes (POST, PATCH, DELETE of a model). */
export type WriteKind = 'create' | 'update' | 'delete';

export interface AssetNeed {
  readonly asset: string | null;
  readonly edit: boolean;
}

export const assetNeedsSchema = z.array(
  z.object({ asset: z.string().nullable(), edit: z.boolean() }),
);

/**
 * THE per-asset check of a write (DESIGN.md §10), fresh or repeated: an asset the writer does not
 * see is unknown to it (404, as for another account's), one it sees without edit rights is
 * refused (403). No access: the server's own write.
 */
export function requireAsset(access: AccessDecision | undefined, need: AssetNeed): void {
  if (access === undefined) return;
  if (need.asset === null || !access.seesAsset(need.asset)) throw notFound('Model');
  if (need.edit && !access.editsAsset(need.asset)) throw forbidden();
}

/** A write that names a field hidden from the writer is refused: it could not see it. */
export function refuseHiddenFields(
  access: AccessDecision | undefined,
  def: ModelDefinition,
  given: Record<string, unknown>,
): void {
  if (access === undefined) return;
  // Attributes only: a body also carries the write's meta (id, mutation_id).
  const named = Object.keys(given).filter((k) => k in def.attributes.shape);
  if (access.hiddenAmong(def.type, named).length > 0) throw forbidden();
}

/** What one write did: the model as it is now (null when deleted) and every update it logged. */
export interface WriteResult {
  readonly model: SyncedModel | null;
  readonly updates: ModelUpdate[];
}

export function toSyncedModel(row: ModelRow): SyncedModel {
  return {
    type: row.type,
    id: row.id,
    parent_type: row.parent_type,
    parent_id: row.parent_id,
    attributes: JSON.parse(row.attributes) as Record<string, unknown>,
    last_seq: row.last_seq,
  };
}

/**
 * The work of one write inside its transaction: the change, the changes that follow from it
 * (children that copy the parent's attributes, references to a deleted model), and every update
 * of them stamped with the account's next seq numbers. Whoever holds the transaction commits or
 * rolls back all of it at once (DESIGN.md invariant 2).
 */
export class ModelTransaction {
  private readonly trx: Db;
  private readonly models: ModelRepository;
  private readonly log: ChangeLogRepository;
  private readonly secrets: ConnectionSecretRepository;
  private readonly now: number;

  constructor(
    trx: Db,
    private readonly clock: Clock,
    private readonly accountId: string,
    private readonly def: ModelDefinition,
    /** The server's own write (a gateway's presence): it may set the registry's serverFields. */
    private readonly asServer = false,
    /**
     * The writer's access (DESIGN.md §10): the assets it may change and the fields it may not
     * see (nor write). Undefined for the server's own writes and the seed.
     */
    private readonly access?: AccessDecision,
    /** Whether a hotspot's point lies on its model (the server's; absent: not asked). */
    private readonly surfaces?: SurfaceCheck,
    /** What a service request's machine context is read from (absent: none is taken). */
    private readonly machine?: MachineContextSource,
    /** The accounts' release keys, which sign a version at its release (absent: none is). */
    private readonly releaseKeys?: ReleaseKeys,
  ) {
    this.trx = trx;
    this.models = new ModelRepository(trx);
    this.log = new ChangeLogRepository(trx);
    this.secrets = new ConnectionSecretRepository(trx);
    this.now = clock.now();
  }

  /** A client's body without the fields only the server writes (they are ignored, not refused). */
  private writable(body: Record<string, unknown>): Record<string, unknown> {
    const serverFields = this.def.serverFields ?? [];
    if (this.asServer || serverFields.length === 0) return body;
    return Object.fromEntries(Object.entries(body).filter(([k]) => !serverFields.includes(k)));
  }

  private refuseHidden(given: Record<string, unknown>): void {
    refuseHiddenFields(this.access, this.def, given);
  }

  /** A help model's writer and time (serverFields `changed_by`, `changed_at`). */
  private stampWriter(attributes: Record<string, unknown>): void {
    if (!this.asServer || attributes.changed_by === undefined)
      attributes.changed_by = this.access?.userId ?? null;
    attributes.changed_at = this.now;
  }

  /** Every per-asset need this write passed, in order (kept with its mutation id). */
  readonly needs: AssetNeed[] = [];

  /** Updates this write made in other accounts (a forwarded ticket), by account. */
  readonly others = new Map<string, ModelUpdate[]>();

  /** Whether the write changed who sees what (a service request's agent and its asset). */
  accessMoved = false;

  private addOthers(accountId: string, updates: readonly ModelUpdate[]): void {
    this.others.set(accountId, [...(this.others.get(accountId) ?? []), ...updates]);
  }

  /**
   * A technical problem of a customer's account goes to the development team of the root
   * account as a copy there (`forwarded_to`), which shows none of the customer's other data; the
   * team's progress on the copy is the original's (its reporter is told, ticket-rules.ts). Both
   * in this write's transaction.
   */
  private async forwardTicket(
    id: string,
    after: TicketAttributes,
    changed: Record<string, unknown>,
  ): Promise<void> {
    if ('technical' in changed && after.technical && after.forwarded_to === null) {
      const chain = await new AccountRepository(this.trx).chainUp(this.accountId);
      const root = chain.at(-1);
      if (after.forwarded_from === null && root !== undefined && root.id !== this.accountId) {
        const copy = await new ModelTransaction(
          this.trx,
          this.clock,
          root.id,
          ticketModel,
          true,
        ).create(undefined, {
          kind: after.kind,
          board: after.board,
          title: after.title,
          description: after.description,
          importance: after.importance,
          state: 'not_assigned',
          technical: true,
          progress: after.progress,
          forwarded_from: { account_id: this.accountId, ticket_id: id },
        });
        this.addOthers(root.id, copy.updates);
        if (copy.model !== null) after.forwarded_to = changed.forwarded_to = copy.model.id;
      }
    }
    const from = after.forwarded_from;
    if ('progress' in changed && from !== null) {
      const original = new ModelTransaction(
        this.trx,
        this.clock,
        from.account_id,
        ticketModel,
        true,
      );
      // The original may have been deleted since: the copy goes on alone.
      const done = await original
        .update(from.ticket_id, { progress: after.progress })
        .catch((err: unknown) => {
          if (err instanceof DomainError && err.kind === 'not_found') return undefined;
          throw err;
        });
      if (done !== undefined) {
        this.addOthers(from.account_id, done.updates);
        for (const [account, list] of original.others) this.addOthers(account, list);
      }
    }
  }

  private checkAsset(need: AssetNeed): void {
    requireAsset(this.access, need);
    if (this.access !== undefined) this.needs.push(need);
  }

  /**
   * The writer may change what belongs to this asset (requireAsset: 404 unseen, 403 view only);
   * `placed` is the model as stored (as given, for a create), whose other owner decides when it
   * has no asset.
   */
  private async mayChange(assetId: string | null, placed: Record<string, unknown>): Promise<void> {
    if (this.def.asset === undefined) return;
    // An inspection's window is moved by whoever sees its asset (inspections/inspection-rules.ts).
    if (changedBySight(this.def.type)) {
      this.maySee(assetId);
      return;
    }
    // A service request asks for help with a machine one sees: its table decides the rest.
    if (this.def.type === serviceRequestModel.type) {
      this.maySee(assetId);
      return;
    }
    // A form entry's photo or signature: who filled the entry in (its stored filler and asset),
    // who sees that asset.
    if (this.def.type === fileModel.type && typeof placed.form_entry_id === 'string') {
      this.maySee(assetId);
      if (this.access !== undefined)
        await mayChangeEntryFile(this.trx, this.accountId, placed as FileAttributes, this.access);
      return;
    }
    if (this.ofAccount(assetId)) {
      if (this.access === undefined) return;
      // An article's image: who edits the help centre (the file type's permission aside).
      if (this.def.type === fileModel.type && typeof placed.article_id === 'string') {
        if (!this.access.editsHelp) throw forbidden();
        return;
      }
      // A ticket's photo: its reporter while it is new, a feedback admin (the stored ticket).
      if (this.def.type === fileModel.type && typeof placed.ticket_id === 'string') {
        await mayChangeTicketPhoto(this.trx, this.accountId, placed.ticket_id, this.access);
        return;
      }
      // A theme's image: who edits themes.
      if (this.def.type === fileModel.type && typeof placed.theme_id === 'string') {
        mayChangeThemeFile(this.access);
        return;
      }
      // A release's artifact: who edits releases, while the stored release is a draft.
      if (this.def.type === fileModel.type && typeof placed.release_id === 'string') {
        await mayChangeReleaseFile(this.trx, this.accountId, placed.release_id, this.access);
        return;
      }
      // A template's 3D model, scene, their files and hotspots (no asset): who edits templates.
      if (TEMPLATE_PARTS.has(this.def.type) && !this.access.editsTemplates) throw forbidden();
      this.mayWriteFiles();
      return;
    }
    this.mayWriteFiles();
    this.checkAsset({ asset: assetId, edit: true });
  }

  /**
   * Files other than an article's images need the file type's own permission (model.service.ts
   * lets a help-centre author's file writes through to here, where the stored owner is known).
   */
  private mayWriteFiles(): void {
    if (this.def.type === fileModel.type && this.access?.editsFiles === false) throw forbidden();
  }

  /** The writer sees this asset: one it does not see is unknown to it (404). */
  private maySee(assetId: string | null): void {
    if (this.ofAccount(assetId)) return;
    this.checkAsset({ asset: assetId, edit: false });
  }

  /** A model of a type whose asset is optional, without one: the account's (the type decides). */
  private ofAccount(assetId: string | null): boolean {
    return assetId === null && this.def.assetOptional === true;
  }

  /**
   * What creating a model needs of its asset: an acknowledgement changes nothing of the asset,
   * so who sees it (and holds `alarm::acknowledge`) may give one, like an operator who may not
   * reconfigure a machine yet must answer its alarms; anything else needs edit rights. An asset
   * itself is new: its type's permission alone decides.
   */
  private async mayCreateIn(
    assetId: string | null,
    attributes: Record<string, unknown>,
  ): Promise<void> {
    if (
      this.def.type === alarmAckModel.type ||
      createdBySight(this.def.type) ||
      // A technician fills in a form at a machine it sees (form_entry::create, no edit right).
      this.def.type === formEntryModel.type
    )
      this.maySee(assetId);
    else if (this.def.asset !== 'self') await this.mayChange(assetId, attributes);
  }

  /**
   * The attributes a model copies from its parent (registry `fromParent`: a stream's, an alarm's,
   * an acknowledgement's `asset_id`) are the STORED parent's, never the client's: access follows
   * them, so an id named beside the parent's must not decide whose asset the write reaches.
   * `placed` is the model as the write leaves it (for an update, the stored attributes under the
   * written ones), whose parent is read. A body without the copies gets them (an alarm created
   * with its stream only); one naming another value is refused, but only after the access check
   * on the stored parent's asset (`contradicted`), so the refusal tells nothing of a hidden one.
   */
  private async withParentCopies(
    body: Record<string, unknown>,
    placed: Record<string, unknown>,
  ): Promise<{ body: Record<string, unknown>; contradicted: string[] }> {
    const fields: readonly string[] = this.def.fromParent ?? [];
    const parentField = this.def.parentField;
    const parentId = parentField === undefined ? undefined : placed[parentField];
    if (fields.length === 0 || parentField === undefined || typeof parentId !== 'string')
      return { body, contradicted: [] };
    const parent = await this.models.find(this.accountId, this.def.parentType, parentId);
    if (parent === undefined) {
      // A writer that does not see every asset cannot tell a missing parent from a hidden one.
      if (this.access !== undefined && !this.access.allAssets) throw notFound('Model');
      throw invalidInput({ [parentField]: [`Unknown ${this.def.parentType}.`] });
    }
    const stored = JSON.parse(parent.attributes) as Record<string, unknown>;
    const copies = Object.fromEntries(fields.map((f) => [f, stored[f]]));
    // Compared as values, not as JSON text: the client's value is not checked yet, and one
    // nested thousands deep overflowed JSON.stringify's stack (a 500).
    const contradicted = fields.filter((f) => f in body && !isDeepStrictEqual(body[f], copies[f]));
    return { body: { ...body, ...copies }, contradicted };
  }

  /** A write whose copied attributes contradict its stored parent's is refused, on the parent. */
  private refuseContradicted(contradicted: readonly string[]): void {
    const parentField = this.def.parentField;
    if (contradicted.length === 0 || parentField === undefined) return;
    throw invalidInput({ [parentField]: [otherAssetText(this.def.parentType)] });
  }

  async create(id: string | undefined, given: Record<string, unknown>): Promise<WriteResult> {
    if (this.def.type === jobModel.type) await mayWriteJobs(this.trx, this.accountId);
    this.refuseHidden(given);
    const written = await this.withoutSecrets(id, this.writable(given));
    const { body, contradicted } = await this.withParentCopies(written, written);
    const parsed = this.def.attributes.safeParse(body);
    if (!parsed.success) throw invalidInput(fieldErrorsOf(parsed.error));
    const attributes = parsed.data;
    const modelId = id ?? uuidv7(this.now);
    // Access first: what the checks below answer must not tell whether a hidden asset exists.
    const assetId = assetIdOf(this.def, modelId, attributes);
    await this.mayCreateIn(assetId, attributes);
    this.refuseContradicted(contradicted);
    // A copy of a 3D model (an asset made from a template) takes its original's files as made.
    const copied =
      this.def.type === threedmodelModel.type
        ? await this.copyModel(attributes as ThreedmodelAttributes)
        : [];
    if (HELP_TYPES.has(this.def.type)) {
      // An article's number is the next free one; who wrote a help model and when, the server's.
      if (this.def.type === articleModel.type) {
        if (attributes.number === null)
          attributes.number = await nextArticleNumber(this.trx, this.accountId);
        else await noteArticleNumber(this.trx, this.accountId, attributes.number as number);
      }
      this.stampWriter(attributes);
    }
    const created: NewModel = {
      trx: this.trx,
      accountId: this.accountId,
      type: this.def.type,
      attributes,
      access: this.access,
      asServer: this.asServer,
      now: this.now,
      machine: this.machine,
    };
    for (const rule of CREATE_RULES) await rule(created);
    if (this.def.type === deploymentGatewayModel.type) mayWriteDeploymentGateway(this.asServer);
    const parts: PlannedPart[] =
      this.def.type === deploymentModel.type
        ? await deploymentCreate(
            this.trx,
            this.accountId,
            modelId,
            attributes as DeploymentAttributes,
            this.access,
            this.asServer,
            this.now,
          )
        : [];
    if (this.def.type === releaseModel.type)
      await releaseCreate(
        this.trx,
        this.accountId,
        modelId,
        attributes as ReleaseAttributes,
        this.asServer,
        this.access?.userId ?? null,
        this.now,
      );
    if (this.def.type === releaseModel.type)
      mayApplyModule(
        this.access,
        { ...(attributes as ReleaseAttributes), assets: [] },
        attributes as ReleaseAttributes,
        true,
      );
    await this.check(attributes, Object.keys(attributes), modelId);
    // A report's next time is the server's (a schedule in its time zone, or an interval).
    if (this.def.type === reportModel.type && !this.asServer)
      attributes.next_at = nextRunAt(attributes as ReportAttributes, this.now);
    if (await this.models.idTaken(modelId)) {
      throw new DomainError('conflict', 'This id is already taken.', {
        fields: { id: ['This id is already taken.'] },
      });
    }
    let acknowledged: Acknowledged | undefined;
    if (this.def.type === alarmAckModel.type) {
      const ack = attributes as AlarmAckAttributes;
      acknowledged = await acknowledgeIn(
        this.trx,
        this.accountId,
        ack,
        this.access?.userId ?? null,
        this.now,
      );
      Object.assign(attributes, acknowledged.ack);
    }
    // A template's 3D model, scene or file sits under the template, an article's image under the
    // article (registry `altParents`).
    const parent = parentOf(this.def, attributes, this.accountId);
    const parentId = parent.id;
    const sortKey = sortKeyOf(this.def, attributes);
    this.assets.set(modelId, assetId);
    if (parent.type !== this.def.parentType) this.owners.set(modelId, parent);
    if (this.def.asset === 'self') await this.giveNewAsset(modelId);
    const drafts: Draft[] = [
      { action: 'updated', type: this.def.type, id: modelId, attributes },
      {
        action: 'child_created',
        type: parent.type,
        id: parentId,
        child_type: this.def.type,
        child_id: modelId,
      },
      ...(await this.listChange(parentId, { id: modelId, sortKey })),
    ];
    const updates = await this.stamp(drafts);
    if (acknowledged !== undefined)
      updates.push(...(await this.patch(acknowledged.alarm, { status: acknowledged.status })));
    if (this.def.type === ticketMessageModel.type) {
      const follows = await afterMessage(
        this.trx,
        this.accountId,
        attributes as TicketMessageAttributes,
        this.now,
      );
      if (follows !== undefined) updates.push(...(await this.patch(follows.row, follows.patch)));
    }
    if (this.givenAsset !== undefined && this.access !== undefined) {
      updates.push(...(await this.logRoles(this.access.roleIds)));
    }
    const at = isoAt(this.now);
    const row: Omit<ModelRow, 'account_id'> = {
      id: modelId,
      type: this.def.type,
      parent_type: parent.type,
      parent_id: parentId,
      sort_key: sortKey,
      attributes: storedJson(attributes),
      last_seq: updates[0]?.seq ?? 0,
      created_at: at,
      updated_at: at,
      asset_id: assetId,
    };
    await this.models.insert(this.accountId, row);
    await this.keepSecrets(modelId);
    await this.noteHistory(modelId, null, attributes, Object.keys(attributes), parts.length);
    if (this.def.type === serviceRequestModel.type)
      this.accessMoved ||= await keepServiceAccess(
        this.trx,
        this.accountId,
        modelId,
        attributes as ServiceRequestAttributes,
      );
    if (this.def.type === articleTextModel.type)
      await indexArticleText(
        this.trx,
        this.accountId,
        modelId,
        attributes as ArticleTextAttributes,
      );
    // A rollout's gateways' parts, under it (deployment-rules.ts).
    for (const part of parts) {
      const made = await new ModelTransaction(
        this.trx,
        this.clock,
        this.accountId,
        deploymentGatewayModel,
        true,
      ).create(undefined, { ...part, changed_at: this.now });
      updates.push(...made.updates);
    }
    return {
      model: toSyncedModel({ ...row, account_id: this.accountId }),
      updates: [...copied, ...updates],
    };
  }

  /**
   * A 3D model made as a copy (`copy_of`): the original, as stored, is one the writer sees and is
   * processed; its files (uploads, levels, thumbnail) are copied for the new model's asset or
   * template (new file models naming the same stored bytes, so nothing is uploaded or processed
   * again), and the copy takes its levels, bounds and format with them. Returns the copies' updates.
   */
  private async copyModel(model: ThreedmodelAttributes): Promise<ModelUpdate[]> {
    if (model.copy_of === null) return [];
    const row = await this.models.find(this.accountId, threedmodelModel.type, model.copy_of);
    const original =
      row === undefined ? undefined : (JSON.parse(row.attributes) as ThreedmodelAttributes);
    // Only a template's model is copied (into an asset made from it): never another asset's,
    // whose files would become the copy's owner's. Any other is told as missing.
    if (row?.asset_id !== null || (original?.template_id ?? null) === null)
      throw invalidInput({ copy_of: [THREED_TEXTS.copyMissing] });
    if (original?.state !== 'ready') throw invalidInput({ copy_of: [THREED_TEXTS.copyNotReady] });
    const updates: ModelUpdate[] = [];
    const copies = new Map<string, string>();
    const copy = async (fileId: string): Promise<string> => {
      const known = copies.get(fileId);
      if (known !== undefined) return known;
      const fileRow = await this.models.find(this.accountId, fileModel.type, fileId);
      if (fileRow === undefined) throw invalidInput({ copy_of: [THREED_TEXTS.sourceMissing] });
      const file = JSON.parse(fileRow.attributes) as FileAttributes;
      const id = uuidv7(this.now);
      const tx = new ModelTransaction(this.trx, this.clock, this.accountId, fileModel, true);
      const made = await tx.create(id, {
        ...file,
        asset_id: model.asset_id,
        template_id: model.template_id,
      });
      updates.push(...made.updates);
      copies.set(fileId, id);
      return id;
    };
    const sources = [];
    for (const source of original.sources)
      sources.push({ path: source.path, file_id: await copy(source.file_id) });
    const levels = [];
    for (const level of original.levels)
      levels.push({ ...level, file_id: await copy(level.file_id) });
    Object.assign(model, {
      sources,
      levels,
      state: original.state,
      progress: 1,
      reason: null,
      format: original.format,
      bounds: original.bounds,
      thumbnail_file_id:
        original.thumbnail_file_id === null ? null : await copy(original.thumbnail_file_id),
    } satisfies Partial<ThreedmodelAttributes>);
    return updates;
  }

  async update(id: string, given: Record<string, unknown>): Promise<WriteResult> {
    if (this.def.type === deploymentGatewayModel.type) mayWriteDeploymentGateway(this.asServer);
    if (this.def.type === jobModel.type) await mayWriteJobs(this.trx, this.accountId);
    /** Other models' changes this one brings (a module version it replaces as the active one). */
    const replaced: ModelUpdate[] = [];
    const existing = await this.models.find(this.accountId, this.def.type, id);
    if (existing === undefined) throw notFound('Model');
    await this.mayChange(
      existing.asset_id,
      JSON.parse(existing.attributes) as Record<string, unknown>,
    );
    this.refuseHidden(given);
    const written = await this.withoutSecrets(id, this.writable(given));
    const before = JSON.parse(existing.attributes) as Record<string, unknown>;
    // The copies follow the parent the write leaves it under (a stream moved to another group).
    const { body, contradicted } = await this.withParentCopies(written, { ...before, ...written });
    const known = Object.keys(this.def.attributes.shape).filter((k) => k in body);
    const parsed = this.def.attributes.safeParse({
      ...before,
      ...Object.fromEntries(known.map((k) => [k, body[k]])),
    });
    if (!parsed.success) throw invalidInput(fieldErrorsOf(parsed.error));
    const after = parsed.data;
    const changed = Object.fromEntries(
      known
        .filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]))
        .map((k) => [k, after[k]]),
    );
    const assetId = assetIdOf(this.def, id, after);
    // Moved to another asset: the writer must be allowed to change that one too.
    if (assetId !== existing.asset_id) await this.mayChange(assetId, after);
    this.refuseContradicted(contradicted);
    // A version, an entry and a task's state are kept as made (a write of nothing is refused too).
    if (FORM_TYPES.has(this.def.type))
      await formChange(this.trx, this.accountId, this.def.type, after, this.asServer);
    const fixed = (this.def.fixed ?? []).filter((k) => k in changed);
    if (fixed.length > 0)
      throw invalidInput(Object.fromEntries(fixed.map((k) => [k, [FILE_FIXED]])));
    await this.keepSecrets(id);
    if (Object.keys(changed).length === 0) return { model: toSyncedModel(existing), updates: [] };
    if (this.def.type === alarmModel.type && changed.enabled === false) {
      const status = await standDownIn(
        this.trx,
        this.accountId,
        id,
        (after as AlarmAttributes).status,
        this.now,
      );
      if (status !== undefined) after.status = changed.status = status;
    }
    if (
      this.def.type === reportModel.type &&
      !this.asServer &&
      ['schedule', 'interval_ms', 'state'].some((k) => k in changed)
    ) {
      // A new schedule, interval or state moves the next time (null while paused).
      const next = nextRunAt(after as ReportAttributes, this.now);
      if (next !== after.next_at) after.next_at = changed.next_at = next;
    }
    if (HELP_TYPES.has(this.def.type)) {
      this.stampWriter(after);
      changed.changed_by = after.changed_by;
      changed.changed_at = after.changed_at;
    }
    if (this.def.type === deploymentModel.type) {
      deploymentUpdate(
        before as DeploymentAttributes,
        after as DeploymentAttributes,
        Object.keys(changed),
        this.asServer,
        this.access?.userId ?? null,
        this.now,
      );
      for (const k of ['reason', 'changed_by', 'changed_at'] as const)
        if (JSON.stringify(after[k]) !== JSON.stringify(before[k])) changed[k] = after[k];
    }
    if (this.def.type === releaseModel.type) {
      // Released, a version is fixed; at its release, the server signs it (release-rules.ts).
      const stamped = after as ReleaseAttributes;
      // Active on assets, a module version is in their gateways' configuration: who manages
      // gateways, and may edit each asset it comes onto or goes off, changes that.
      mayApplyModule(
        this.access,
        before as ReleaseAttributes,
        stamped,
        'assets' in changed || 'state' in changed,
      );
      await releaseUpdate(
        this.trx,
        this.accountId,
        id,
        before as ReleaseAttributes,
        stamped,
        Object.keys(changed),
        this.releaseKeys,
        this.access?.userId ?? null,
        this.now,
      );
      for (const k of releaseModel.serverFields)
        if (JSON.stringify(stamped[k]) !== JSON.stringify(before[k])) changed[k] = stamped[k];
      // One version of a module is active: the one it replaces goes back to released.
      for (const row of await replacedVersions(
        this.trx,
        this.accountId,
        id,
        before as ReleaseAttributes,
        stamped,
      )) {
        const other = JSON.parse(row.attributes) as ReleaseAttributes;
        mayApplyModule(this.access, other, { ...other, state: 'released' }, true);
        replaced.push(...(await this.patch(row, { state: 'released' })));
        await noteReleaseHistory(this.trx, this.accountId, this.now, [
          {
            release_id: row.id,
            subject: 'release',
            subject_id: row.id,
            event: 'state',
            from_state: 'active',
            to_state: 'released',
            detail: stamped.version,
            by_user: this.access?.userId ?? null,
          },
        ]);
      }
    }
    if (this.def.type === ticketModel.type) {
      // The feedback centre's table decides, by the stored ticket (ticket-rules.ts).
      await ticketUpdate(
        this.trx,
        this.accountId,
        before as TicketAttributes,
        after as TicketAttributes,
        Object.keys(changed),
        this.access,
        this.now,
      );
      await noteTicketSteps(
        this.trx,
        this.accountId,
        id,
        before as TicketAttributes,
        after as TicketAttributes,
        Object.keys(changed),
        this.access?.userId ?? null,
        this.now,
      );
      await this.forwardTicket(id, after as TicketAttributes, changed);
      changed.changed_at = after.changed_at;
    }
    if (this.def.type === serviceRequestModel.type) {
      // The service requests' table decides, by the stored request (service-rules.ts).
      await serviceUpdate(
        this.trx,
        this.accountId,
        before as ServiceRequestAttributes,
        after as ServiceRequestAttributes,
        Object.keys(changed),
        this.access,
        this.now,
      );
      changed.changed_at = after.changed_at;
      if ('assigned_to' in changed) changed.agent_name = after.agent_name;
    }
    // Only what this write changes is checked: a reference that went stale under another
    // model's delete must not block edits of unrelated fields.
    await this.check(after, Object.keys(changed), id);
    const parentId = this.parentOf(after);
    const sortKey = sortKeyOf(this.def, after);
    const moved = parentId !== existing.parent_id;
    this.assets.set(id, assetId);
    const drafts: Draft[] = [
      {
        action: 'attributes_updated',
        type: this.def.type,
        id,
        attributes: changed,
        ...movedFrom(existing.asset_id, assetId),
      },
    ];
    if (moved) {
      drafts.push(
        {
          action: 'child_deleted',
          type: this.def.parentType,
          id: existing.parent_id,
          child_type: this.def.type,
          child_id: id,
        },
        {
          action: 'child_created',
          type: this.def.parentType,
          id: parentId,
          child_type: this.def.type,
          child_id: id,
        },
        ...(await this.listChange(existing.parent_id, { id, sortKey: null })),
        ...(await this.listChange(parentId, { id, sortKey })),
      );
    } else if (sortKey !== existing.sort_key) {
      drafts.push(...(await this.listChange(parentId, { id, sortKey })));
    }
    const updates = await this.stamp(drafts);
    const changes = {
      attributes: storedJson(after),
      last_seq: updates[0]?.seq ?? existing.last_seq,
      updated_at: isoAt(this.now),
      sort_key: sortKey,
      parent_id: parentId,
      asset_id: assetId,
    };
    await this.models.update(this.accountId, id, changes);
    await this.noteHistory(id, before, after, Object.keys(changed));
    updates.push(...replaced);
    if (this.def.type === serviceRequestModel.type)
      this.accessMoved ||= await keepServiceAccess(
        this.trx,
        this.accountId,
        id,
        after as ServiceRequestAttributes,
      );
    if (this.def.type === articleTextModel.type)
      await indexArticleText(this.trx, this.accountId, id, after as ArticleTextAttributes);
    updates.push(...(await this.passDown(existing, changed)));
    if (this.def.type === themeModel.type)
      updates.push(
        ...(await this.dropImages(id, supersededImages(before, after, Object.keys(changed)))),
      );
    return { model: toSyncedModel({ ...existing, ...changes }), updates };
  }

  /**
   * Release management's history (issue 35 item 5): a version's, a rollout's and a gateway's
   * part's creation and changes, with who made them (none: the server or the gateway's agent). A
   * rollout's parts are told by its creation (how many gateways), not each.
   */
  private async noteHistory(
    id: string,
    before: Record<string, unknown> | null,
    after: Record<string, unknown>,
    changed: readonly string[],
    gateways = 0,
  ): Promise<void> {
    const by = this.access?.userId ?? null;
    const type = this.def.type;
    let notes: HistoryNote[] = [];
    if (type === releaseModel.type)
      notes = historyNotes('release', id, id, before, after, changed, by);
    else if (type === deploymentModel.type)
      notes = historyNotes(
        'deployment',
        id,
        (after as DeploymentAttributes).release_id,
        before,
        after,
        changed,
        by,
        before === null ? String(gateways) : (after as DeploymentAttributes).reason,
      );
    else if (type === deploymentGatewayModel.type && before !== null) {
      const part = after as DeploymentGatewayAttributes;
      const rollout = await this.models.find(
        this.accountId,
        deploymentModel.type,
        part.deployment_id,
      );
      if (rollout === undefined) return;
      const releaseId = (JSON.parse(rollout.attributes) as DeploymentAttributes).release_id;
      notes = historyNotes(
        'gateway',
        part.gateway_id,
        releaseId,
        before,
        after,
        changed,
        by,
        part.message,
      );
    }
    await noteReleaseHistory(this.trx, this.accountId, this.now, notes);
  }

  async remove(id: string): Promise<WriteResult> {
    if (this.def.type === deploymentGatewayModel.type) mayWriteDeploymentGateway(this.asServer);
    if (this.def.type === jobModel.type) await mayWriteJobs(this.trx, this.accountId);
    const existing = await this.models.find(this.accountId, this.def.type, id);
    if (existing === undefined) throw notFound('Model');
    await this.mayChange(
      existing.asset_id,
      JSON.parse(existing.attributes) as Record<string, unknown>,
    );
    if (removedByEditors(this.def.type)) this.checkAsset({ asset: existing.asset_id, edit: true });
    mayRemoveFeedback(
      this.def.type,
      JSON.parse(existing.attributes) as Record<string, unknown>,
      this.access,
    );
    if (this.def.type === releaseModel.type)
      mayRemoveRelease(JSON.parse(existing.attributes) as ReleaseAttributes);
    if (this.def.type === themeModel.type) await mayRemoveTheme(this.trx, id);
    if (FORM_TYPES.has(this.def.type))
      await formChange(this.trx, this.accountId, this.def.type, null, this.asServer);
    // A rollout is kept with its gateways' parts (who did what when, issue 35 item 5).
    if (this.def.type === deploymentModel.type && !this.asServer)
      throw invalidInput({ state: [DEPLOYMENT_TEXTS.kept] });
    // Children go with their parent (an asset's groups and streams), deepest first.
    const doomed: ModelRow[] = [];
    const visit = async (row: ModelRow) => {
      for (const child of await this.models.children(this.accountId, row.type, row.id))
        await visit(child);
      doomed.push(row);
    };
    await visit(existing);
    for (const row of doomed) this.assets.set(row.id, row.asset_id);
    // A request that goes (alone or with its asset) opens its asset to its agent no more.
    for (const row of doomed)
      if (row.type === serviceRequestModel.type)
        this.accessMoved ||= await keepServiceAccess(this.trx, this.accountId, row.id, null);
    const doomedIds = new Set(doomed.map((row) => row.id));
    // References to what goes are cleared first, so that no model ever names a deleted one.
    const updates: ModelUpdate[] = [];
    for (const row of doomed) updates.push(...(await this.clearReferencesTo(row, doomedIds)));
    const drafts: Draft[] = [
      ...doomed.map((row): Draft => ({ action: 'item_deleted', type: row.type, id: row.id })),
      {
        action: 'child_deleted',
        type: existing.parent_type,
        id: existing.parent_id,
        child_type: existing.type,
        child_id: id,
      },
      ...(await this.listChange(existing.parent_id, { id, sortKey: null })),
    ];
    updates.push(...(await this.stamp(drafts)));
    const rolesLosing = new Set<string>();
    for (const row of doomed) {
      await this.models.remove(this.accountId, row.id);
      if (row.type === 'asset') {
        const grants = new AssetAccessRepository(this.trx);
        for (const role of await grants.rolesGiven(this.accountId, row.id)) rolesLosing.add(role);
        await grants.forgetAsset(this.accountId, row.id);
      }
      if (row.type === connectionModel.type) await this.secrets.remove(this.accountId, row.id);
      if (row.type === alarmModel.type)
        await new AlarmRepository(this.trx).forget(this.accountId, [row.id]);
      if (row.type === articleTextModel.type)
        await unindexArticleTexts(this.trx, this.accountId, [row.id]);
    }
    // The roles that had the asset changed too: their synced models follow.
    updates.push(...(await this.logRoles(rolesLosing)));
    return { model: null, updates };
  }

  /**
   * A theme's images its saved change let go (theme-rules.ts `supersededImages`): each file of
   * that theme goes, told like any delete; its bytes follow with the file pruner's next run.
   */
  private async dropImages(themeId: string, fileIds: readonly string[]): Promise<ModelUpdate[]> {
    const updates: ModelUpdate[] = [];
    for (const fileId of fileIds) {
      const row = await this.models.find(this.accountId, fileModel.type, fileId);
      if (row === undefined || (JSON.parse(row.attributes) as FileAttributes).theme_id !== themeId)
        continue;
      const files = new ModelTransaction(this.trx, this.clock, this.accountId, fileModel, true);
      updates.push(...(await files.remove(fileId)).updates);
    }
    return updates;
  }

  /** The roles' synced models (models/managed.ts) as they are now, logged after this change. */
  private async logRoles(roleIds: Iterable<string>): Promise<ModelUpdate[]> {
    const ids = [...roleIds];
    if (ids.length === 0) return [];
    const log = new ManagedLog(this.trx);
    await log.roles(this.accountId, ids);
    return (await log.commit(this.now)).get(this.accountId) ?? [];
  }

  /** The asset this write gave the writer's roles (a restricted writer's new asset), if any. */
  givenAsset: string | undefined;

  /**
   * A new asset made by a writer whose roles see only the assets given to them: given to those
   * roles, with edit rights, in the same transaction, so the writer sees what it made.
   */
  private async giveNewAsset(assetId: string): Promise<void> {
    if (this.access === undefined || this.access.allAssets) return;
    this.givenAsset = assetId;
    const grants = new AssetAccessRepository(this.trx);
    // Not every asset: then none of the writer's active roles opens every asset.
    for (const role of this.access.roleIds) await grants.grant(this.accountId, role, assetId, true);
  }

  /** Children that copy attributes of their parent (registry `fromParent`) follow its change. */
  private async passDown(
    parent: Pick<ModelRow, 'type' | 'id'>,
    changed: Record<string, unknown>,
  ): Promise<ModelUpdate[]> {
    const updates: ModelUpdate[] = [];
    for (const child of await this.models.children(this.accountId, parent.type, parent.id)) {
      const fields = (modelByType(child.type)?.fromParent ?? []).filter((f) => f in changed);
      if (fields.length === 0) continue;
      const patch = Object.fromEntries(fields.map((f) => [f, changed[f]]));
      updates.push(...(await this.patch(child, patch)));
      updates.push(...(await this.passDown(child, patch)));
    }
    return updates;
  }

  /**
   * Sets the references to `target` (registry `refs`) to null in every model that survives the
   * delete. A reference that may not be null refuses the delete.
   */
  private async clearReferencesTo(
    target: ModelRow,
    doomed: ReadonlySet<string>,
  ): Promise<ModelUpdate[]> {
    const updates: ModelUpdate[] = [];
    for (const def of MODELS as readonly ModelDefinition[]) {
      for (const [field, type] of Object.entries(def.refs ?? {})) {
        if (type !== target.type) continue;
        const rows = await this.models.referencing(this.accountId, def.type, field, target.id);
        for (const row of rows.filter((r) => !doomed.has(r.id))) {
          const nullable = def.attributes.partial().safeParse({ [field]: null }).success;
          if (!nullable) {
            throw new DomainError(
              'conflict',
              `This ${target.type} is still used by a ${def.type}.`,
            );
          }
          updates.push(...(await this.patch(row, { [field]: null })));
        }
      }
    }
    return updates;
  }

  /** Sets some attributes of another model as part of this write, logged as attributes_updated. */
  private async patch(row: ModelRow, patch: Record<string, unknown>): Promise<ModelUpdate[]> {
    const def = modelByType(row.type);
    const attributes = { ...(JSON.parse(row.attributes) as Record<string, unknown>), ...patch };
    const assetId = def === undefined ? row.asset_id : assetIdOf(def, row.id, attributes);
    this.assets.set(row.id, assetId);
    const updates = await this.stamp([
      {
        action: 'attributes_updated',
        type: row.type,
        id: row.id,
        attributes: patch,
        ...movedFrom(row.asset_id, assetId),
      },
    ]);
    await this.models.update(this.accountId, row.id, {
      attributes: storedJson(attributes),
      last_seq: updates[0]?.seq ?? row.last_seq,
      updated_at: isoAt(this.now),
      sort_key: def === undefined ? row.sort_key : sortKeyOf(def, attributes),
      parent_id: row.parent_id,
      asset_id: assetId,
    });
    return updates;
  }

  /**
   * For ordered models: `updated_list` on the parent with the children's ids in their new order,
   * after one child is placed at `sortKey` (null: removed).
   */
  private async listChange(
    parentId: string,
    change: { id: string; sortKey: string | null },
  ): Promise<Draft[]> {
    if (this.def.ordered !== true) return [];
    const siblings = (await this.models.children(this.accountId, this.def.parentType, parentId))
      .filter((row) => row.type === this.def.type && row.id !== change.id)
      .map((row) => ({ id: row.id, sortKey: row.sort_key }));
    if (change.sortKey !== null) siblings.push({ id: change.id, sortKey: change.sortKey });
    siblings.sort((a, b) =>
      a.sortKey === b.sortKey ? (a.id < b.id ? -1 : 1) : a.sortKey < b.sortKey ? -1 : 1,
    );
    return [
      {
        action: 'updated_list',
        type: this.def.parentType,
        id: parentId,
        child_type: this.def.type,
        list: siblings.map((sibling) => sibling.id),
      },
    ];
  }

  /**
   * Model rules beyond the schema, for the fields this write sets: references into the same
   * account, and per-type checks.
   */
  private async check(
    attributes: Record<string, unknown>,
    fields: readonly string[],
    selfId: string,
  ) {
    const problems: Record<string, string[]> = {};
    const touched = new Set(fields);
    // An asset's, a template's or an article's (registry `altParents`): exactly one is named.
    const alts = this.def.altParents ?? [];
    if (
      alts.length > 0 &&
      this.def.parentField !== undefined &&
      alts.some((alt) => touched.has(alt.field))
    ) {
      const named = [this.def.parentField, ...alts.map((alt) => alt.field)].filter(
        (f) => typeof attributes[f] === 'string',
      );
      // A form entry's file names its entry's asset too (whose access decides who sees it).
      const entryFile = typeof attributes.form_entry_id === 'string';
      const wanted = entryFile ? [this.def.parentField, 'form_entry_id'] : null;
      const fits = wanted === null ? named.length === 1 : named.join() === wanted.join();
      if (!fits) problems[this.def.parentField] = [THREED_TEXTS.oneOwner];
    }
    for (const [field, type] of Object.entries(this.def.refs ?? {})) {
      const value = attributes[field];
      if (!touched.has(field) || typeof value !== 'string' || type === undefined) continue;
      const target = await this.models.find(this.accountId, type, value);
      if (target === undefined) problems[field] = [`Unknown ${type}.`];
    }
    if (this.def.type === 'gateway')
      Object.assign(problems, gatewayProblems(attributes as GatewayAttributes));
    if (this.def.type === 'file') {
      for (const [field, text] of Object.entries(fileProblems(attributes as FileAttributes)))
        problems[field] = [text];
      // A 3D model's levels and thumbnail are the server's (threed/model-processor.ts).
      if (touched.has('kind') && attributes.kind === 'level' && !this.asServer)
        problems.kind = [FILE_ONLY_SERVER];
      Object.assign(problems, themeFileProblems(attributes as FileAttributes));
    }
    if (this.def.type === themeModel.type)
      Object.assign(
        problems,
        await themeImageProblems(this.trx, this.accountId, selfId, attributes, touched),
      );
    if (this.def.type === jobModel.type)
      Object.assign(
        problems,
        await jobSlugProblems(this.trx, this.accountId, selfId, attributes, touched),
      );
    if (this.def.type === translationModel.type)
      Object.assign(
        problems,
        await translationKeyProblems(this.trx, this.accountId, selfId, attributes, touched),
      );
    // A diagram binds its own asset's streams (diagrams/diagram-rules.ts).
    if (this.def.type === diagramModel.type)
      Object.assign(
        problems,
        await diagramBindingProblems(this.trx, this.accountId, selfId, attributes, touched),
      );
    // Issue 37 item 6: a webhook's address, kind and assets (integrations/integration-rules.ts).
    if (this.def.type === 'integration')
      Object.assign(
        problems,
        await integrationWriteProblems(
          this.trx,
          this.accountId,
          selfId,
          attributes,
          touched,
          this.access,
        ),
      );
    if (this.def.type === threedmodelModel.type && touched.has('sources')) {
      Object.assign(problems, await this.threedSources(attributes as ThreedmodelAttributes));
    }
    if (this.def.type === sceneModel.type && touched.has('models')) {
      Object.assign(problems, await this.sceneModels(attributes as SceneAttributes));
    }
    if (this.def.type === renderingModel.type && touched.has('scene_id')) {
      // A template's scene (no asset) has no pictures: the asset made from it renders its own.
      if (attributes.asset_id === null) problems.scene_id = [SCENE_TEXTS.renderingOfTemplate];
      else
        Object.assign(problems, await this.renderingsUnderWay(attributes as RenderingAttributes));
    }
    if (this.def.type === hotspotModel.type) {
      Object.assign(problems, await this.hotspotProblems(attributes as HotspotAttributes, touched));
    }
    if (this.def.type === 'asset' && touched.has('photo') && typeof attributes.photo === 'string') {
      const photo = await this.models.find(this.accountId, fileModel.type, attributes.photo);
      const file =
        photo === undefined ? undefined : (JSON.parse(photo.attributes) as FileAttributes);
      // A photo of the asset, or a picture the server made of its 3D scenes (a rendering).
      const picture =
        file?.kind === 'photo' || (file?.kind === 'level' && file.type === 'image/png');
      if (file !== undefined && (file.asset_id !== selfId || !picture))
        problems.photo = [PHOTO_NOT_OF_ASSET];
    }
    if (this.def.type === 'connection' && (touched.has('settings') || touched.has('protocol'))) {
      const protocol = attributes.protocol as Protocol;
      Object.assign(problems, settingsProblems(protocol, attributes.settings));
    }
    if (this.def.type === 'datapoint' && (touched.has('address') || touched.has('connection_id'))) {
      Object.assign(problems, await this.datapointProblems(attributes));
    }
    if (
      this.def.type === 'datapoint' &&
      touched.has('datastream_id') &&
      this.access !== undefined
    ) {
      // A datapoint feeds a stream: only one of an asset the writer may change.
      const streamId = attributes.datastream_id;
      if (typeof streamId === 'string') {
        const stream = await this.models.find(this.accountId, 'datastream', streamId);
        if (stream !== undefined) this.checkAsset({ asset: stream.asset_id, edit: true });
      }
    }
    if (this.def.type === 'datapoint' && (touched.has('tag') || touched.has('connection_id'))) {
      Object.assign(problems, await this.tagProblems(attributes, selfId));
    }
    if (this.def.type === 'alarm') Object.assign(problems, await this.alarmChecks(attributes));
    if ('help_article' in this.def.attributes.shape)
      Object.assign(
        problems,
        await linkedArticleProblems(this.trx, this.accountId, attributes, touched),
      );
    if (HELP_TYPES.has(this.def.type)) {
      const help = await helpProblems(
        this.trx,
        this.accountId,
        this.def.type,
        attributes,
        touched,
        selfId,
      );
      Object.assign(problems, help);
    }
    if (this.def.type === reportModel.type) {
      const report = attributes as ReportAttributes;
      Object.assign(problems, await reportWriteProblems(this.trx, this.accountId, report, touched));
      // The dashboard it mails is one the writer sees (an asset's dashboard: that asset's).
      if (touched.has('dashboard_id') && problems.dashboard_id === undefined) {
        const dashboard = await this.models.find(this.accountId, 'dashboard', report.dashboard_id);
        if (dashboard !== undefined) this.maySee(dashboard.asset_id);
      }
    }
    if (this.def.type === 'dashboard' && touched.has('widgets')) {
      Object.assign(problems, await this.dashboardStreams(attributes as DashboardAttributes));
    }
    if (this.def.type === 'datastream' && (touched.has('type') || touched.has('unit')))
      Object.assign(problems, await this.streamOfAlarms(attributes, selfId));
    if (Object.keys(problems).length > 0) throw invalidInput(problems);
  }

  /**
   * An asset's dashboard shows that asset's streams: each stream a widget names, as stored, is
   * of the dashboard's asset (a stream deleted since is not asked about: its widget shows 'not
   * available'). An account's dashboard may show any; a template's names the template's keys.
   */
  private async dashboardStreams(dashboard: DashboardAttributes) {
    if (dashboard.asset_id === null) return {};
    const ids = [...new Set(dashboard.widgets.flatMap((w) => w.streams))];
    for (const id of ids) {
      const stream = await this.models.find(this.accountId, 'datastream', id);
      if (stream !== undefined && stream.asset_id !== dashboard.asset_id) {
        return { widgets: [DASHBOARD_TEXTS.streamOfOtherAsset] };
      }
    }
    return {};
  }

  /**
   * A 3D model is made of files uploaded for it: each, as stored, a 3D model file (kind 'model')
   * of the model's asset (or template), all together within the input limit. A copy's are the
   * server's copies of its original's.
   */
  private async threedSources(model: ThreedmodelAttributes) {
    if (model.copy_of !== null) return {};
    if (model.sources.length === 0) return { sources: [FILE_REQUIRED] };
    let bytes = 0;
    for (const source of model.sources) {
      const row = await this.models.find(this.accountId, fileModel.type, source.file_id);
      const file = row === undefined ? undefined : (JSON.parse(row.attributes) as FileAttributes);
      // Stored before templates had models, a file names no template (undefined).
      if (
        file === undefined ||
        (file.asset_id ?? null) !== model.asset_id ||
        (file.template_id ?? null) !== model.template_id ||
        file.kind !== 'model'
      )
        return { sources: [THREED_TEXTS.sourcesOfAsset] };
      bytes += file.size;
    }
    if (bytes > THREED_LIMITS.inputBytes) return { sources: [MODEL_FILE_TEXTS.tooLarge] };
    return {};
  }

  /**
   * A scene's renderings waiting or being drawn are bounded (the leader draws one at a time, each
   * up to 2 minutes): a writer cannot fill the queue.
   */
  private async renderingsUnderWay(rendering: RenderingAttributes) {
    const siblings = await this.models.children(
      this.accountId,
      sceneModel.type,
      rendering.scene_id,
    );
    const underWay = siblings.filter((row) => {
      if (row.type !== renderingModel.type) return false;
      const state = (JSON.parse(row.attributes) as RenderingAttributes).state;
      return state === 'waiting' || state === 'rendering';
    });
    return underWay.length >= RENDERING_LIMITS.underWay
      ? { scene_id: [SCENE_TEXTS.tooManyRenderings] }
      : {};
  }

  /** A scene places 3D models of its own asset or template (as stored). */
  private async sceneModels(scene: SceneAttributes) {
    for (const placed of scene.models) {
      const row = await this.models.find(
        this.accountId,
        threedmodelModel.type,
        placed.threedmodel_id,
      );
      const model =
        row === undefined ? undefined : (JSON.parse(row.attributes) as ThreedmodelAttributes);
      // Stored before templates had models, a model names no template (undefined).
      if (
        model === undefined ||
        (model.asset_id ?? null) !== scene.asset_id ||
        (model.template_id ?? null) !== scene.template_id
      )
        return { models: [SCENE_TEXTS.modelsOfAsset] };
    }
    return {};
  }

  /**
   * A hotspot sits on a model its scene places (the stored scene's), on that model's surface
   * (spec 001 §8: measured against the model's medium level, within the levels' simplification
   * error); its streams and files are of its asset, its links name objects that exist.
   */
  private async hotspotProblems(hotspot: HotspotAttributes, touched: ReadonlySet<string>) {
    const problems: Record<string, string[]> = {};
    if (touched.has('point') || touched.has('threedmodel_id')) {
      const text = await this.offSurface(hotspot);
      if (text !== null) problems.point = [text];
    }
    if (touched.has('metadata')) {
      // A template's scene's hotspot (no asset) names the template's streams by place.
      const groups = hotspot.asset_id === null ? await this.templateGroupsOf(hotspot) : null;
      for (const entry of hotspot.metadata) {
        if (groups !== null && entry.kind !== 'link') {
          // Its streams by place and no files; texts and positions as on any hotspot.
          const place = entry.kind === 'stream' ? templateStreamPlace(entry.datastream_id) : null;
          const stream = place === null ? undefined : groups[place.group]?.streams[place.stream];
          if (entry.kind === 'file' || (entry.kind === 'stream' && stream === undefined))
            problems.metadata = [SCENE_TEXTS.metadataOfTemplate];
          continue;
        }
        const [type, id] =
          entry.kind === 'stream'
            ? ['datastream', entry.datastream_id]
            : entry.kind === 'file'
              ? [fileModel.type, entry.file_id]
              : entry.kind === 'link'
                ? [entry.target, entry.id]
                : [null, null];
        if (type === null || id === null) continue;
        const row = await this.models.find(this.accountId, type, id);
        // Missing and hidden are told alike: the answer says nothing of another asset's items.
        const seen =
          row !== undefined &&
          (row.asset_id === null ||
            this.access === undefined ||
            this.access.seesAsset(row.asset_id));
        if (entry.kind === 'link') {
          if (!seen) problems.metadata = [SCENE_TEXTS.linkMissing];
        } else if (!seen || row.asset_id !== hotspot.asset_id) {
          problems.metadata = [SCENE_TEXTS.metadataOfAsset];
        }
      }
    }
    return problems;
  }

  /**
   * The groups of the template whose scene the hotspot is on: its streams are named by their
   * place (`templateStreamKey`, bound to the new streams in each asset made from it).
   */
  private async templateGroupsOf(hotspot: HotspotAttributes) {
    const sceneRow = await this.models.find(this.accountId, sceneModel.type, hotspot.scene_id);
    const templateId =
      sceneRow === undefined
        ? null
        : (JSON.parse(sceneRow.attributes) as SceneAttributes).template_id;
    const templateRow =
      templateId === null
        ? undefined
        : await this.models.find(this.accountId, 'template', templateId);
    return templateRow === undefined
      ? []
      : (JSON.parse(templateRow.attributes) as TemplateAttributes).groups;
  }

  /** Why the hotspot's point is not on its model, or null when it is. */
  private async offSurface(hotspot: HotspotAttributes): Promise<string | null> {
    const sceneRow = await this.models.find(this.accountId, sceneModel.type, hotspot.scene_id);
    if (sceneRow === undefined) return null; // the ref check says so
    const scene = JSON.parse(sceneRow.attributes) as SceneAttributes;
    if (!scene.models.some((m) => m.threedmodel_id === hotspot.threedmodel_id))
      return SCENE_TEXTS.modelNotInScene;
    // The server's own hotspots (the demo's) are placed by the seed on a known surface.
    if (this.asServer || this.surfaces === undefined) return null;
    const row = await this.models.find(
      this.accountId,
      threedmodelModel.type,
      hotspot.threedmodel_id,
    );
    const model =
      row === undefined ? undefined : (JSON.parse(row.attributes) as ThreedmodelAttributes);
    if (model?.state !== 'ready') return SCENE_TEXTS.modelNotReady;
    const sha256 = await surfaceLevelOf(this.models, this.accountId, model);
    if (sha256 === undefined) return SCENE_TEXTS.modelNotReady;
    const distance = await this.surfaces.distance(this.accountId, { sha256 }, hotspot.point);
    if (distance === null || distance > surfaceTolerance(model.bounds)) return SCENE_TEXTS.offModel;
    return null;
  }

  /** A stream with alarms keeps a type and a unit they can watch. */
  private async streamOfAlarms(attributes: Record<string, unknown>, selfId: string) {
    const stream = attributes as DatastreamAttributes;
    for (const child of await this.models.children(this.accountId, 'datastream', selfId)) {
      if (child.type !== 'alarm') continue;
      const alarm = JSON.parse(child.attributes) as AlarmAttributes;
      const found = alarmStreamProblems(alarm, stream);
      if (found.datastream_id !== undefined) return { type: [ALARM_TEXTS.streamHasAlarms] };
      if (found.unit !== undefined) return { unit: [ALARM_TEXTS.unitMismatch] };
    }
    return {};
  }

  /**
   * An alarm's rules between fields (a limit at all, the one its condition uses) and against its
   * stream (of numbers, the same unit, the same asset), checked on every write of the alarm: a
   * change of one field can break a rule of another.
   */
  private async alarmChecks(attributes: Record<string, unknown>) {
    const alarm = attributes as AlarmAttributes;
    const problems: Record<string, string[]> = {};
    for (const [field, text] of Object.entries(alarmProblems(alarm))) problems[field] = [text];
    const row = await this.models.find(this.accountId, 'datastream', alarm.datastream_id);
    if (row === undefined) return problems;
    const stream = JSON.parse(row.attributes) as DatastreamAttributes;
    // Its asset is the stream's already (withParentCopies).
    for (const [field, text] of Object.entries(alarmStreamProblems(alarm, stream)))
      problems[field] = [text];
    return problems;
  }

  /**
   * A tag's name is unique, ignoring case, among the tags of its gateway (spec 001 §5: 'Tagname
   * already used'). Reads the gateway's connections and their datapoints: a gateway has tens of
   * tags, not thousands.
   */
  private async tagProblems(attributes: Record<string, unknown>, selfId: string) {
    const tag = typeof attributes.tag === 'string' ? attributes.tag.trim().toLowerCase() : '';
    if (tag === '') return {};
    const connection = await this.models.find(
      this.accountId,
      connectionModel.type,
      String(attributes.connection_id),
    );
    if (connection === undefined || connection.parent_id === null) return {};
    const siblings = await this.models.children(
      this.accountId,
      gatewayModel.type,
      connection.parent_id,
    );
    for (const c of siblings.filter((row) => row.type === connectionModel.type)) {
      for (const d of await this.models.children(this.accountId, connectionModel.type, c.id)) {
        if (d.id === selfId || d.type !== datapointModel.type) continue;
        const other = (JSON.parse(d.attributes) as { tag?: unknown }).tag;
        if (typeof other === 'string' && other.trim().toLowerCase() === tag) {
          return { tag: [TAGNAME_USED] };
        }
      }
    }
    return {};
  }

  /** A datapoint's address must fit its connection's protocol. */
  private async datapointProblems(attributes: Record<string, unknown>) {
    const connection = await this.models.find(
      this.accountId,
      connectionModel.type,
      String(attributes.connection_id),
    );
    if (connection === undefined) return {};
    const protocol = (JSON.parse(connection.attributes) as { protocol?: unknown }).protocol;
    if (!PROTOCOLS.includes(protocol as Protocol)) return {};
    return addressProblems(protocol as Protocol, attributes.address);
  }

  /**
   * A connection's secret settings (an OPC UA password) are write-only (DESIGN.md §8): taken out
   * of the attributes before they are stored or logged, kept in connection_secrets (same
   * transaction), and marked `password_set`. A write without a password keeps the stored one
   * while `password_set` stays true; `password_set: false` (or a protocol without it) drops it.
   */
  private pendingSecrets: { password?: string; keep: boolean } | undefined;

  private async withoutSecrets(
    id: string | undefined,
    body: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    this.pendingSecrets = undefined;
    if (this.def.type !== connectionModel.type || !('settings' in body)) return body;
    const settings = body.settings;
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return body;
    const { password, password_set: passwordSet, ...rest } = settings as Record<string, unknown>;
    if (typeof password === 'string' && password !== '') {
      this.pendingSecrets = { password, keep: false };
      return { ...body, settings: { ...rest, password_set: true } };
    }
    const stored = id === undefined ? undefined : await this.secrets.find(this.accountId, id);
    const keep = passwordSet === true && stored?.password !== undefined;
    this.pendingSecrets = { keep };
    return { ...body, settings: keep ? { ...rest, password_set: true } : rest };
  }

  private async keepSecrets(id: string): Promise<void> {
    const pending = this.pendingSecrets;
    this.pendingSecrets = undefined;
    if (pending === undefined || pending.keep) return;
    if (pending.password === undefined) await this.secrets.remove(this.accountId, id);
    else await this.secrets.put(this.accountId, id, { password: pending.password });
  }

  private parentOf(attributes: Record<string, unknown>): string {
    return parentIdOf(this.def, attributes, this.accountId);
  }

  /**
   * The asset each model of this write belongs to, as the write leaves it (a model moved to
   * another asset: the new one). Read from the store for the others (an ordered list's parent).
   */
  private readonly assets = new Map<string, string | null>();

  private async assetOfModel(type: string, id: string): Promise<string | null> {
    const known = this.assets.get(id);
    if (known !== undefined) return known;
    const def = modelByType(type);
    if (def?.asset === undefined) return null;
    if (def.asset === 'self') return id;
    const row = await this.models.find(this.accountId, type, id);
    const assetId = row?.asset_id ?? null;
    this.assets.set(id, assetId);
    return assetId;
  }

  /**
   * The asset of an update's subject (the child's for child_* and updated_list), which decides
   * who receives it (DESIGN.md §10). updated_list names no child: its children share the asset
   * of the parent it is sent on.
   */
  private async subjectAsset(d: Draft): Promise<string | null> {
    const subjectType = d.child_type ?? d.type;
    if (modelByType(subjectType)?.asset === undefined) return null;
    if (d.child_type !== undefined && d.child_id === undefined) {
      return this.assetOfModel(d.type, d.id);
    }
    return this.assetOfModel(subjectType, d.child_id ?? d.id);
  }

  /**
   * The other owners (a template, an article) of the models this write touched that sit under
   * one (registry altParents).
   */
  private readonly owners = new Map<
    string,
    { readonly type: string; readonly id: string } | null
  >();

  /** The template or article a model sits under, when its type may sit under one (else null). */
  private async ownerOfModel(
    type: string,
    id: string,
  ): Promise<{ readonly type: string; readonly id: string } | null> {
    const def = modelByType(type);
    if (def?.altParents === undefined) return null;
    const known = this.owners.get(id);
    if (known !== undefined) return known;
    const row = await this.models.find(this.accountId, type, id);
    const placed =
      row === undefined
        ? undefined
        : parentOf(def, JSON.parse(row.attributes) as object, this.accountId);
    const owner = placed === undefined || placed.type === def.parentType ? null : placed;
    this.owners.set(id, owner);
    return owner;
  }

  /** Gives each draft the account's next seq and ts, and writes them to the log. */
  private async stamp(drafts: readonly Draft[]): Promise<ModelUpdate[]> {
    const assets = await Promise.all(drafts.map((d) => this.subjectAsset(d)));
    const placed: Draft[] = [];
    for (const [i, d] of drafts.entries()) {
      const asset = assets[i];
      if (asset !== null && asset !== undefined) {
        placed.push({ ...d, asset });
        continue;
      }
      // A template's model names its template, an article's image its article, a ticket's photo
      // its ticket (access-decision.ts seesUpdate).
      const subject =
        d.child_type === undefined
          ? { type: d.type, id: d.id }
          : d.child_id === undefined
            ? null
            : { type: d.child_type, id: d.child_id };
      const owner = subject === null ? null : await this.ownerOfModel(subject.type, subject.id);
      placed.push(
        owner === null ? d : { ...d, [OWNER_MARKERS[owner.type] ?? 'template']: owner.id },
      );
    }
    return this.log.record(this.accountId, placed, this.now);
  }
}
