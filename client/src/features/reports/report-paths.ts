import type { RouteRequirement } from '@plant/shared-schema';

const seg = (value: string) => encodeURIComponent(value);

/** The report screens' addresses (issue 31), built in one place. */
export const reportPaths = {
  list: () => '/app/reports/list',
  /** A report of the account, or of an asset (spec 000 §2: the asset's `report/{reportid}`). */
  report: (id: string, assetId: string | null) =>
    assetId === null ? `/app/reports/${seg(id)}` : `/app/devices/${seg(assetId)}/report/${seg(id)}`,
} as const;

/** What the report screens (and the menu's entry) need. */
export const REPORTS_REQUIREMENT: RouteRequirement = { permission: 'report::view' };
