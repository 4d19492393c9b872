const seg = (value: string) => encodeURIComponent(value);

/** The app's addresses of the templates area (spec 000 §2), built in one place. */
export const templatePaths = {
  list: () => '/app/templates/list',
  details: (id: string) => `/app/templates/${seg(id)}/details`,
  demo: () => '/app/templates/demo/smartphone',
} as const;
