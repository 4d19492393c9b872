import { INTERNAL_TAGS, ROLE_SLUGS } from './constants';
import { scopesAllow } from './oauth/scopes';

/**
 * The one permission function of spec 000 §6. The server calls it to enforce, the client to hide.
 * It is pure: everything it needs arrives in the context, which GET /api/v1/user carries.
 */

export interface RoleRef {
  readonly id: string;
  readonly slug: string;
}

export interface PermissionRecordRef {
  readonly name: string;
  readonly role_id: string;
}

export interface TagRef {
  readonly slug: string;
  /** null: a global tag. */
  readonly account_id: string | null;
  /** Slugs of the tags this one implies. */
  readonly parents: readonly string[];
}

/** A feature flag maps a permission (its key) to the tag a user must hold to get it. */
export interface FeatureFlagRef {
  readonly key: string;
  readonly tag: string;
}

export interface PermissionContext {
  readonly activeRoles: readonly RoleRef[];
  readonly permissions: readonly PermissionRecordRef[];
  readonly tags: readonly TagRef[];
  readonly featureFlags: readonly FeatureFlagRef[];
  readonly internalFeaturesDisabled: boolean;
  /**
   * A scoped token's scopes (issue 18): every permission outside them is denied, whatever the
   * roles and tags give. Absent for the app's own sign-in.
   */
  readonly scopes?: readonly string[];
}

/** The slugs a user holds: its own tags and every tag they imply (parents, followed transitively). */
export function effectiveTagSlugs(tags: readonly TagRef[]): ReadonlySet<string> {
  const bySlug = new Map<string, TagRef[]>();
  for (const tag of tags) bySlug.set(tag.slug, [...(bySlug.get(tag.slug) ?? []), tag]);
  const held = new Set<string>();
  const pending = tags.map((t) => t.slug);
  for (let slug = pending.pop(); slug !== undefined; slug = pending.pop()) {
    if (held.has(slug)) continue;
    held.add(slug);
    for (const tag of bySlug.get(slug) ?? []) pending.push(...tag.parents);
  }
  return held;
}

/** Internal users (a GLOBAL internal tag) get everything, unless they switched internal features off. */
export function isInternal(ctx: PermissionContext): boolean {
  if (ctx.internalFeaturesDisabled) return false;
  return ctx.tags.some(
    (t) => t.account_id === null && (INTERNAL_TAGS as readonly string[]).includes(t.slug),
  );
}

export function hasTag(ctx: PermissionContext, slug: string): boolean {
  if ((INTERNAL_TAGS as readonly string[]).includes(slug)) return isInternal(ctx);
  return effectiveTagSlugs(ctx.tags).has(slug);
}

/**
 * Decides one permission, in this order:
 * 0. a scoped token (ctx.scopes) outside its scopes: denied;
 * 1. internal (global tag, not disabled): granted;
 * 2. a feature flag on this permission whose tag the user lacks (by hasTag, so a flag that needs
 *    `internal` needs the global tag, switched on): denied, even for admin;
 * 3. an active role with slug admin: granted;
 * 4. a permission record with this name on one of the active roles: granted;
 * 5. otherwise denied.
 */
export function can(ctx: PermissionContext, permission: string): boolean {
  if (ctx.scopes !== undefined && !scopesAllow(ctx.scopes, permission)) return false;
  if (isInternal(ctx)) return true;
  const flagged = ctx.featureFlags.filter((f) => f.key === permission);
  if (flagged.some((f) => !hasTag(ctx, f.tag))) return false;
  if (ctx.activeRoles.some((r) => r.slug === ROLE_SLUGS.admin)) return true;
  const roleIds = new Set(ctx.activeRoles.map((r) => r.id));
  return ctx.permissions.some((p) => p.name === permission && roleIds.has(p.role_id));
}

/** What a route asks for: a permission, a tag, or both. */
export interface RouteRequirement {
  readonly permission?: string;
  readonly tag?: string;
}

export const ROUTE_REQUIREMENTS = {
  accounts: { permission: 'account::view' },
  helpcenter: { permission: 'helpcenter::view' },
  securityInsights: { permission: 'security-insights::view' },
  gateways: { permission: 'gateway::view' },
  templates: { permission: 'template::view' },
  gatewayTerminal: { permission: 'gateway::view', tag: 'internal' },
} as const satisfies Record<string, RouteRequirement>;

export function canEnterRoute(ctx: PermissionContext, requirement: RouteRequirement): boolean {
  if (requirement.permission !== undefined && !can(ctx, requirement.permission)) return false;
  if (requirement.tag !== undefined && !hasTag(ctx, requirement.tag)) return false;
  return true;
}

/** A user whose only role is norole (or who has none) may not sign in. */
export function mayUseApp(roleSlugs: readonly string[]): boolean {
  return roleSlugs.some((slug) => slug !== ROLE_SLUGS.norole);
}
