const seg = (value: string) => encodeURIComponent(value);

/**
 * An inspection's address (spec 000 §2: the asset's `eventinspection/{opportunityid}`, the
 * inspection's id): what the inspect buttons open and the page's link copies.
 */
export function inspectionPath(assetId: string, inspectionId: string): string {
  return `/app/devices/${seg(assetId)}/eventinspection/${seg(inspectionId)}`;
}
