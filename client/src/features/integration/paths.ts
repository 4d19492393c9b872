const seg = (value: string) => encodeURIComponent(value);

/** An integration's pages (spec 000 §2): the account's, and on an asset's page. */
export const integrationPaths = {
  page: (slug: string) => `/app/integration/${seg(slug)}`,
  onAsset: (assetId: string, slug: string) => `/app/devices/${seg(assetId)}/i/${seg(slug)}`,
} as const;
