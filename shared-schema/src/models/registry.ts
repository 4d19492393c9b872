import { assetModel } from './asset';
import { inspectionModel, inspectionNoteModel } from './inspection';
import { datastreamGroupModel, datastreamModel } from './datastream';
import { gatewayModel } from './gateway';
import { fileModel } from './file';
import { connectionModel, datapointModel } from './connection';
import { errorCodeListModel, integrationModel, serviceModel } from './account-lists';
import { accountModel, memberModel, roleModel, tagModel } from './managed';
import { templateModel } from './template';
import { alarmAckModel, alarmModel } from './alarm';
import { dashboardModel } from './dashboard';
import { reportModel } from './report';
import { threedmodelModel } from './threedmodel';
import { hotspotModel, renderingModel, sceneModel } from './scene';
import { articleDraftModel, articleModel, articleTextModel } from './article';
import { ticketMessageModel, ticketModel, ticketVoteModel } from './ticket';
import { serviceRequestModel } from './service-request';
import { boardModel, firmwareModel, releaseModel } from './release';
import { deploymentGatewayModel, deploymentModel } from './deployment';
import { themeModel } from './theme';
import { jobModel } from './job';
import { formEntryModel, formModel, formVersionModel, taskModel, taskStateModel } from './form';
import { translationModel } from './translation';
import { diagramModel } from './diagram';
import { can, type PermissionContext } from '../permissions';
import type { z } from 'zod';
import type { ModelDefinition } from './registry-types';

/**
 * Every synced model that clients write through the generic routes. Adding a model: one entry
 * here, its file in models/, and its screens.
 */
export const MODELS = [
  assetModel,
  inspectionModel,
  inspectionNoteModel,
  gatewayModel,
  datastreamGroupModel,
  datastreamModel,
  connectionModel,
  datapointModel,
  fileModel,
  integrationModel,
  serviceModel,
  errorCodeListModel,
  templateModel,
  alarmModel,
  alarmAckModel,
  roleModel,
  memberModel,
  accountModel,
  tagModel,
  dashboardModel,
  reportModel,
  threedmodelModel,
  sceneModel,
  hotspotModel,
  renderingModel,
  articleModel,
  articleTextModel,
  articleDraftModel,
  ticketModel,
  ticketMessageModel,
  ticketVoteModel,
  serviceRequestModel,
  releaseModel,
  firmwareModel,
  boardModel,
  deploymentModel,
  deploymentGatewayModel,
  themeModel,
  jobModel,
  formModel,
  formVersionModel,
  formEntryModel,
  taskModel,
  taskStateModel,
  translationModel,
  diagramModel,
] as const;

export type ModelType = (typeof MODELS)[number]['type'];

/** The registry entry of one type. */
export type ModelOf<T extends ModelType> = Extract<(typeof MODELS)[number], { readonly type: T }>;

/**
 * A model's attributes as stored and synced (the zod schema's output, defaults filled in): what a
 * screen reads. Each type added to MODELS gets its own, with no further edit.
 */
export type ModelAttributes<T extends ModelType> = z.output<ModelOf<T>['attributes']>;

/** What a create of the type takes (the schema's input: defaulted fields may be left out). */
export type ModelInput<T extends ModelType> = z.input<ModelOf<T>['attributes']>;

/** The attribute names of a type (search fields, sort fields). */
export type AttributeName<T extends ModelType> = keyof ModelAttributes<T> & string;

const byType = new Map<string, ModelDefinition>(MODELS.map((m) => [m.type, m]));
const byCollection = new Map<string, ModelDefinition>(MODELS.map((m) => [m.collection, m]));

export function modelByType(type: string): ModelDefinition | undefined {
  return byType.get(type);
}

/** Whether the server keeps the type in its own tables (models/managed.ts), not in `models`. */
export function isManaged(def: Pick<ModelDefinition, 'managed'>): boolean {
  return def.managed === true;
}

/** Whether a type named in a request or a message is one of the registry's. */
export function isModelType(type: string): type is ModelType {
  return byType.has(type);
}

export function modelByCollection(collection: string): ModelDefinition | undefined {
  return byCollection.get(collection);
}

/** The synced model types a user may read (their view permission). */
export function viewableTypes(ctx: PermissionContext): string[] {
  return MODELS.filter((m) => can(ctx, m.permissions.view)).map((m) => m.type);
}

/**
 * The key a model sorts by among its siblings, the same on server and client: numbers zero-padded
 * to 12 digits, strings lower-cased. Children sorted by (sort key, id) come in the order of the
 * server's `updated_list`.
 */
export function sortKeyOf(def: Pick<ModelDefinition, 'sortField'>, attributes: object): string {
  const value = (attributes as Record<string, unknown>)[def.sortField];
  if (typeof value === 'number') return value.toString().padStart(12, '0');
  return typeof value === 'string' ? value.toLowerCase() : '';
}

/**
 * The asset a model belongs to, for access per asset (DESIGN.md §10): the asset's own id, its
 * asset attribute, or null for a type outside any asset (or a value that names none).
 */
export function assetIdOf(
  def: Pick<ModelDefinition, 'asset'>,
  id: string,
  attributes: object,
): string | null {
  if (def.asset === undefined) return null;
  if (def.asset === 'self') return id;
  const value = (attributes as Record<string, unknown>)[def.asset];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The attributes a role's field list can never hide (DESIGN.md §10): those that place the model
 * (its parent and its asset), without which a client could not put it anywhere.
 */
export function structuralFields(
  def: Pick<ModelDefinition, 'asset' | 'parentField' | 'altParents'>,
): string[] {
  return [
    ...(def.parentField === undefined ? [] : [def.parentField]),
    ...(def.altParents ?? []).map((alt) => alt.field),
    ...(def.asset === undefined || def.asset === 'self' ? [] : [def.asset]),
  ];
}

/**
 * The id of a model's parent: its parentField's value (or an `altParents` field's, when one is
 * set), or the account when it has none.
 */
export function parentIdOf(
  def: Pick<ModelDefinition, 'parentType' | 'parentField' | 'altParents'>,
  attributes: object,
  accountId: string,
): string {
  return parentOf(def, attributes, accountId).id;
}

/** A model's parent, type and id: the `altParents` entry whose field is set, else as parentIdOf. */
export function parentOf(
  def: Pick<ModelDefinition, 'parentType' | 'parentField' | 'altParents'>,
  attributes: object,
  accountId: string,
): { readonly type: string; readonly id: string } {
  const read = (field: string) => (attributes as Record<string, unknown>)[field];
  for (const alt of def.altParents ?? []) {
    const id = read(alt.field);
    if (typeof id === 'string') return { type: alt.type, id };
  }
  if (def.parentField === undefined) return { type: def.parentType, id: accountId };
  const value = read(def.parentField);
  return { type: def.parentType, id: typeof value === 'string' ? value : '' };
}

/** The fields of a type a role can show or hide: every attribute but those that place it. */
export function choosableFields(def: ModelDefinition): string[] {
  const fixed = new Set(structuralFields(def));
  return Object.keys(def.attributes.shape).filter((f) => !fixed.has(f));
}
