import { assetModel } from './asset';
import { datastreamGroupModel, datastreamModel } from './datastream';
import { gatewayModel } from './gateway';
import { can, type PermissionContext } from '../permissions';
import type { ModelDefinition } from './registry-types';

/**
 * Every synced model that clients write through the generic routes. Adding a model: one entry
 * here, its file in models/, and its screens.
 */
export const MODELS = [assetModel, gatewayModel, datastreamGroupModel, datastreamModel] as const;

export type ModelType = (typeof MODELS)[number]['type'];

const byType = new Map<string, ModelDefinition>(MODELS.map((m) => [m.type, m]));
const byCollection = new Map<string, ModelDefinition>(MODELS.map((m) => [m.collection, m]));

export function modelByType(type: string): ModelDefinition | undefined {
  return byType.get(type);
}

export function modelByCollection(collection: string): ModelDefinition | undefined {
  return byCollection.get(collection);
}

/** The synced model types a user may read (their view permission). */
export function viewableTypes(ctx: PermissionContext): string[] {
  return MODELS.filter((m) => can(ctx, m.permissions.view)).map((m) => m.type);
}
