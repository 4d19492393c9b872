import type { ThreedOwner } from './owner';

const seg = (value: string) => encodeURIComponent(value);

const base = (owner: ThreedOwner) =>
  owner.kind === 'asset' ? `/app/devices/${seg(owner.id)}` : `/app/templates/${seg(owner.id)}`;

/**
 * The app's addresses of 3D models and scenes (spec 000 §2), built in one place: an asset's
 * under /app/devices/{id}, a template's under /app/templates/{id}.
 */
export const threedPaths = {
  /** The owner's page (an asset's or a template's details), where its models and scenes are. */
  owner: (owner: ThreedOwner) => `${base(owner)}/details`,
  model: (owner: ThreedOwner, modelId: string) => `${base(owner)}/3d/${seg(modelId)}`,
  scene: (owner: ThreedOwner, sceneId: string) => `${base(owner)}/scene/${seg(sceneId)}`,
} as const;
