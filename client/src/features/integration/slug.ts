import { slugOf } from '@plant/shared-schema';

/**
 * A new integration's page address from its name, one no other integration of the account has
 * in the local store (the server checks again: two made offline at once may still meet there).
 * Null for a name with no letter or digit (set by hand later).
 */
export function freeSlug(
  name: string,
  integrations: readonly { readonly attributes: { readonly slug: string | null } }[],
): string | null {
  const base = slugOf(name).slice(0, 70).replace(/-+$/, '');
  if (base === '') return null;
  const taken = new Set(integrations.map((i) => i.attributes.slug));
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(slug)) return slug;
  }
}
