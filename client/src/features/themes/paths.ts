/** Themes' paths (spec 000 §2): the list and one theme; and the jobs of the public pages. */
export const themePaths = {
  list: () => '/app/themes/list',
  theme: (id: string) => `/app/themes/${encodeURIComponent(id)}`,
  /** The public pages' jobs (issue 36 item 3), written by the top account. */
  jobs: () => '/app/jobs/list',
  job: (id: string) => `/app/jobs/${encodeURIComponent(id)}`,
};

/** Who sees the jobs. */
export const JOBS_REQUIREMENT = { permission: 'job::view' } as const;

/** Who sees the themes (menu entry and routes). */
export const THEMES_REQUIREMENT = { permission: 'theme::view' } as const;
