import { createContext, useContext } from 'react';
import { templateStreamKey, type TemplateGroup } from '@plant/shared-schema';
import type { FileOwner } from '@plant/sync-worker/api';

/*
 * Whose 3D models and scenes (DESIGN.md §13): an asset's, or a template's, carried into each
 * asset made from it. The pages, lists and forms of the 3D area take an owner instead of an asset,
 * so one set of screens serves both (the asset's and the template's scene/{id} and 3d/{id}).
 */

export interface ThreedOwner {
  readonly kind: 'asset' | 'template';
  readonly id: string;
}

/** The owner a 3D model or scene names (its asset, else its template). */
export function ownerOf(attributes: {
  readonly asset_id: string | null;
  readonly template_id: string | null;
}): ThreedOwner {
  return attributes.asset_id !== null
    ? { kind: 'asset', id: attributes.asset_id }
    : { kind: 'template', id: attributes.template_id ?? '' };
}

export function sameOwner(a: ThreedOwner, b: ThreedOwner): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/** The attributes that place a new model or scene under its owner. */
export function ownerFields(owner: ThreedOwner): {
  asset_id: string | null;
  template_id: string | null;
} {
  return owner.kind === 'asset'
    ? { asset_id: owner.id, template_id: null }
    : { asset_id: null, template_id: owner.id };
}

/** The owner as a local query's parent. */
export function ownerParent(owner: ThreedOwner): { type: 'asset' | 'template'; id: string } {
  return { type: owner.kind, id: owner.id };
}

/** The owner as the files area takes it. */
export function fileOwnerOf(owner: ThreedOwner): FileOwner {
  return owner.kind === 'asset' ? owner.id : { template: owner.id };
}

/** A template's streams as its scenes' hotspots name them (`templateStreamKey`), with names. */
export function templateStreamChoices(
  groups: readonly TemplateGroup[],
): { readonly value: string; readonly label: string }[] {
  return groups.flatMap((group, g) =>
    group.streams.map((stream, s) => ({
      value: templateStreamKey(g, s),
      label: `${group.name} / ${stream.name}`,
    })),
  );
}

/**
 * The scene on screen's owner, for the parts deep in it (a hotspot's entries, its QR code), and
 * for a template's scene its streams by key (no values: a template has none).
 */
export interface SceneOwnerInfo {
  readonly owner: ThreedOwner;
  readonly templateStreams: ReadonlyMap<string, string>;
}

export const SceneOwnerContext = createContext<SceneOwnerInfo | null>(null);

export function useSceneOwner(): SceneOwnerInfo | null {
  return useContext(SceneOwnerContext);
}
