const seg = (value: string) => encodeURIComponent(value);

/** The address of an asset's process diagram (spec 000 §2: `uml/{diagramid}`). */
export function diagramPath(assetId: string, diagramId: string): string {
  return `/app/devices/${seg(assetId)}/uml/${seg(diagramId)}`;
}
