const seg = (value: string) => encodeURIComponent(value);

/** The app's addresses of 3D models and scenes (spec 000 §2), built in one place. */
export const threedPaths = {
  asset: (assetId: string) => `/app/devices/${seg(assetId)}/details`,
  model: (assetId: string, modelId: string) => `/app/devices/${seg(assetId)}/3d/${seg(modelId)}`,
  scene: (assetId: string, sceneId: string) => `/app/devices/${seg(assetId)}/scene/${seg(sceneId)}`,
} as const;
