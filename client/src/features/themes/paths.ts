/** Themes' paths (spec 000 §2): the list and one theme. */
export const themePaths = {
  list: () => '/app/themes/list',
  theme: (id: string) => `/app/themes/${encodeURIComponent(id)}`,
};

/** Who sees the themes (menu entry and routes). */
export const THEMES_REQUIREMENT = { permission: 'theme::view' } as const;
