/**
 * The scopes a third-party token is granted (issue 18): read and write per area. A scope never
 * adds a right; it narrows the user's permissions (spec 000 §6) to its area. The app's own
 * sign-in token carries no scope list and keeps every permission the user's roles give.
 *
 * A permission is `<subject>::<verb>`. The areas below own subjects; `::view` needs the area's
 * read or write scope (write implies read, as a form that edits also shows), every other verb
 * (create, edit, delete, acknowledge, open) needs write. A subject no area owns is never granted
 * to a scoped token.
 */
export const SCOPE_AREAS = {
  assets: {
    subjects: ['asset', 'template'],
    what: 'assets, their templates and files',
  },
  datastreams: {
    subjects: ['datastream'],
    what: 'data streams and their machine values',
  },
  alarms: { subjects: ['alarm'], what: 'alarms, their history and acknowledgements' },
  gateways: {
    subjects: ['gateway', 'terminal', 'release'],
    what: 'gateways, their connections and data points, releases and their rollouts',
  },
  dashboards: { subjects: ['dashboard', 'report'], what: 'dashboards and reports' },
  service: {
    subjects: [
      'service',
      'servicerequest',
      'integration',
      'errorcode',
      'feedback',
      'form',
      'form_entry',
      'task',
    ],
    what: 'service requests, feedback, forms and tasks, integrations and error codes',
  },
  account: {
    subjects: ['account', 'user', 'role', 'tag'],
    what: 'the account, its members and roles',
  },
  insights: {
    subjects: ['insights', 'security-insights', 'helpcenter'],
    what: 'insights and the help centre',
  },
} as const satisfies Record<string, { subjects: readonly string[]; what: string }>;

export type ScopeArea = keyof typeof SCOPE_AREAS;
export type ScopeId = `${ScopeArea}:read` | `${ScopeArea}:write`;

export interface ScopeInfo {
  readonly id: ScopeId;
  readonly description: string;
}

/** GET oauth/scopes: every scope, in a stable order (read before write, per area). */
export const SCOPES: readonly ScopeInfo[] = (
  Object.entries(SCOPE_AREAS) as [ScopeArea, (typeof SCOPE_AREAS)[ScopeArea]][]
).flatMap(([area, { what }]) => [
  { id: `${area}:read` as const, description: `Read ${what}` },
  { id: `${area}:write` as const, description: `Create, change and delete ${what}` },
]);

export const SCOPE_IDS: readonly ScopeId[] = SCOPES.map((s) => s.id);

export function isScopeId(value: string): value is ScopeId {
  return (SCOPE_IDS as readonly string[]).includes(value);
}

const AREA_OF_SUBJECT: ReadonlyMap<string, ScopeArea> = new Map(
  (Object.entries(SCOPE_AREAS) as [ScopeArea, { subjects: readonly string[] }][]).flatMap(
    ([area, { subjects }]) => subjects.map((subject) => [subject, area] as const),
  ),
);

/** Whether a token with these scopes may use this permission (its roles decide besides). */
export function scopesAllow(scopes: readonly string[], permission: string): boolean {
  const [subject = '', verb = ''] = permission.split('::');
  const area = AREA_OF_SUBJECT.get(subject);
  if (area === undefined) return false;
  if (scopes.includes(`${area}:write`)) return true;
  return verb === 'view' && scopes.includes(`${area}:read`);
}

/**
 * Whether the scopes let a token WRITE under a permission: a write asks its area's write scope
 * even where the app lets whoever views write (an inspection or its note is created with
 * `asset::view`: whoever sees a machine looks into its events), so a read-only token never
 * changes anything.
 */
export function scopesAllowWrite(scopes: readonly string[], permission: string): boolean {
  const [subject = '', verb = ''] = permission.split('::');
  return scopesAllow(scopes, verb === 'view' ? `${subject}::write` : permission);
}

/** The scope a permission needs at least (read for `::view`), for messages and the reference. */
export function scopeFor(permission: string): ScopeId | undefined {
  const [subject = '', verb = ''] = permission.split('::');
  const area = AREA_OF_SUBJECT.get(subject);
  if (area === undefined) return undefined;
  return verb === 'view' ? `${area}:read` : `${area}:write`;
}
