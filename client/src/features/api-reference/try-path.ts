/**
 * The path "Try it" sends for a route of the reference: the OpenAPI path's `{name}` segments
 * filled in (each value one segment, encoded), and the query's filled-in values, relative to the
 * API base as the worker's calls take it. Values left empty are left out of the query; a path
 * parameter left empty is missing.
 */
export function filledPath(
  template: string,
  path: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string>> = {},
): { readonly path: string } | { readonly missing: readonly string[] } {
  const missing: string[] = [];
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (path[name] ?? '').trim();
    if (value === '') missing.push(name);
    return segment(value);
  });
  if (missing.length > 0) return { missing };
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value.trim() !== '') search.set(name, value.trim());
  }
  const rest = filled.replace(/^\//, '');
  const q = search.toString();
  return { path: q === '' ? rest : `${rest}?${q}` };
}

/** One path segment: a value can never climb out of its place (`..`) or add segments (`/`). */
function segment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}
