const seg = (value: string) => encodeURIComponent(value);

/** Where a dashboard is seen: the fields of its model that say whose it is. */
export interface DashboardOwner {
  readonly asset_id: string | null;
  readonly template_id: string | null;
}

/** The app's addresses of dashboards (spec 000 §2), built in one place. */
export const dashboardPaths = {
  list: () => '/app/dashboards/list',
  /** A dashboard on its own page: an asset's under the asset, a template's under the template. */
  of: (id: string, owner: DashboardOwner) =>
    owner.asset_id !== null
      ? `/app/devices/${seg(owner.asset_id)}/dashboard/${seg(id)}`
      : owner.template_id !== null
        ? `/app/templates/${seg(owner.template_id)}/dashboard/${seg(id)}`
        : `/app/dashboards/${seg(id)}`,
  /** Where one goes after deleting it: the list it was in. */
  home: (owner: DashboardOwner) =>
    owner.asset_id !== null
      ? `/app/devices/${seg(owner.asset_id)}/details`
      : owner.template_id !== null
        ? `/app/templates/${seg(owner.template_id)}/details`
        : '/app/dashboards/list',
} as const;
