import type { I18n } from '@lingui/core';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Menu } from '@mantine/core';
import { Link, useLocation, useRouter } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { IconDots } from '../../components/icons';
import { safeDecode } from '../../components/safe-decode';
import { sessionAtom } from '../../state/session';
import { useLiveModel } from '../../sync/hooks';
import type { LocalModel } from '@plant/sync-worker/api';
import { ACCOUNT_SELECTED, ID_TYPES, SEGMENT_LABELS, type NamedType } from './breadcrumb-labels';
import classes from './shell.module.css';
import { Name } from '../../components/name';

/**
 * The breadcrumb of spec 000 §2: one item per path segment below /app (the menu is the way home),
 * each leading to its path when that is a page. More than 3 items (2 under 769 px) collapse: the
 * first (not on narrow screens) and the last stay, the others go into a menu.
 */

export interface Crumb {
  /** The path up to and including this segment. */
  readonly path: string;
  readonly segment: string;
  /** The segments before it (what kind of id this is). */
  readonly before: readonly string[];
  /**
   * Where the crumb leads (issue 30 item 7: every crumb is a link): the page it stands for
   * (`/app/gateways/{id}` -> its details, `/app/dashboards` -> its list), else its own path when
   * that is a page, else its parent's.
   */
  readonly to: string | null;
}

/** The pages an item's or an area's path stands for, in this order. */
const STANDS_FOR = ['details', 'list'] as const;

/**
 * Crumbs for a path below /app. `pageOf` answers the route pattern a partial path is a page of
 * (`/app/gateways/$id/details`), or null.
 */
export function crumbsOf(pathname: string, pageOf: (path: string) => string | null): Crumb[] {
  const segments = pathname.split('/').filter((s) => s !== '');
  if (segments[0] !== 'app') return [];
  const crumbs: Crumb[] = [];
  let path = '/app';
  for (const [i, segment] of segments.slice(1).entries()) {
    path = `${path}/${segment}`;
    // Its details or list first: an item's bare path is an empty frame or only forwards.
    // A screen's name, not a value of a parameter (`input/$streamid` with "details").
    const screen = STANDS_FOR.map((s) => `${path}/${s}`).find((p) =>
      pageOf(p)?.endsWith(p.slice(p.lastIndexOf('/'))),
    );
    const own = screen ?? (pageOf(path) === null ? undefined : path);
    const to = own ?? crumbs.at(-1)?.to ?? null;
    crumbs.push({ path, segment, before: segments.slice(0, i + 1), to });
  }
  return crumbs;
}

/** The model a crumb's segment names, if it is an id. */
export function namedModel(crumb: Crumb): { type: NamedType; id: string } | null {
  const previous = crumb.before.at(-1);
  if (previous === undefined || SEGMENT_LABELS[crumb.segment] !== undefined) return null;
  const underAccount = crumb.before.length >= 3 && crumb.before.at(-3) === 'accounts';
  // A platform's version (`versions/platforms/{target}/{id}`): a release, whatever its target
  // (`firmware` there is a target, not the firmware area).
  const platformVersion = crumb.before.at(-2) === 'platforms';
  const type = underAccount
    ? ACCOUNT_SELECTED[previous]
    : platformVersion
      ? 'release'
      : ID_TYPES[previous];
  return type === undefined ? null : { type, id: safeDecode(crumb.segment) };
}

/** How many items the breadcrumb shows before it collapses. */
export const MAX_CRUMBS = { wide: 3, narrow: 2 } as const;

/** UUIDv7 ids start with their time, alike for ids made together: the end tells them apart. */
export function shortId(id: string): string {
  return id.length > 12 ? `…${id.slice(-6)}` : id;
}

export function Breadcrumb({ narrow }: { readonly narrow: boolean }) {
  const { t } = useLingui();
  const router = useRouter();
  const pathname = useLocation({ select: (l) => l.pathname });
  const crumbs = crumbsOf(pathname, (path) => {
    // The router matches loosely ("**": the rest it could not place); a page is an exact match.
    const [, params, route] = router.getMatchedRoutes(path);
    const page = route !== undefined && (route.path === '/' || params['**'] === undefined);
    return page ? String(route.fullPath) : null;
  });
  if (crumbs.length === 0) return null;
  const max = narrow ? MAX_CRUMBS.narrow : MAX_CRUMBS.wide;
  const collapsed = crumbs.length > max;
  const last = crumbs.length - 1;
  const head = collapsed && !narrow ? crumbs.slice(0, 1) : collapsed ? [] : crumbs.slice(0, last);
  const hidden = collapsed ? crumbs.slice(head.length, last) : [];
  const tail = crumbs.slice(last);
  return (
    <nav aria-label={t`Breadcrumb`} className={classes.breadcrumb} data-testid="breadcrumb">
      <ol className={classes.crumbs}>
        {head.map((crumb) => (
          <CrumbItem key={crumb.path} crumb={crumb} current={false} here={pathname} />
        ))}
        {hidden.length > 0 ? (
          <li className={classes.crumb}>
            <Menu position="bottom-start" withinPortal>
              <Menu.Target>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="sm"
                  aria-label={t`${plural(hidden.length, { one: 'Show # more level of the path', other: 'Show # more levels of the path' })}`}
                  data-testid="breadcrumb-more"
                >
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {hidden.map((crumb) =>
                  crumb.to !== null ? (
                    <Menu.Item
                      key={crumb.path}
                      component={Link}
                      to={crumb.to}
                      activeOptions={{ exact: true }}
                    >
                      <CrumbLabel crumb={crumb} />
                    </Menu.Item>
                  ) : (
                    <Menu.Item key={crumb.path} disabled>
                      <CrumbLabel crumb={crumb} />
                    </Menu.Item>
                  ),
                )}
              </Menu.Dropdown>
            </Menu>
          </li>
        ) : null}
        {tail.map((crumb) => (
          <CrumbItem key={crumb.path} crumb={crumb} current here={pathname} />
        ))}
      </ol>
    </nav>
  );
}

function CrumbItem({
  crumb,
  current,
  here,
}: {
  readonly crumb: Crumb;
  readonly current: boolean;
  /** The page's path. */
  readonly here: string;
}) {
  return (
    <li className={classes.crumb} data-testid="breadcrumb-item">
      {current ? (
        <span aria-current="page" className={classes.crumbCurrent}>
          <CrumbLabel crumb={crumb} />
        </span>
      ) : crumb.to === here ? (
        // An ancestor that stands for this very page (an asset on its details): a link, but no
        // second "current page" (the router's Link would mark it so).
        <a href={crumb.to} className={classes.crumbLink} onClick={(e) => e.preventDefault()}>
          <CrumbLabel crumb={crumb} />
        </a>
      ) : crumb.to !== null ? (
        // Exact: the router would mark every ancestor of the page as current.
        <Link to={crumb.to} className={classes.crumbLink} activeOptions={{ exact: true }}>
          <CrumbLabel crumb={crumb} />
        </Link>
      ) : (
        <span className={classes.crumbText}>
          <CrumbLabel crumb={crumb} />
        </span>
      )}
    </li>
  );
}

/** A segment's words: its label, a model's or the account's name, or the id shortened. */
function CrumbLabel({ crumb }: { readonly crumb: Crumb }) {
  const { i18n } = useLingui();
  const session = useAtomValue(sessionAtom);
  const label = SEGMENT_LABELS[crumb.segment];
  if (label !== undefined) return <>{i18n._(label)}</>;
  const named = namedModel(crumb);
  const id = safeDecode(crumb.segment);
  // The active account's name is in the session, also before its model is loaded.
  const account = session?.user.activeAccount;
  if (named?.type === 'account' && account?.id === id) return <Name>{account.name}</Name>;
  if (named !== null) return <ModelName type={named.type} id={named.id} />;
  return <span title={id}>{shortId(id)}</span>;
}

function ModelName({ type, id }: { readonly type: NamedType; readonly id: string }) {
  const { i18n } = useLingui();
  const state = useLiveModel(type, id);
  const name = state.name === 'found' ? modelName(state.model, i18n) : '';
  if (name !== '') return <Name>{name}</Name>;
  return <span title={id}>{shortId(id)}</span>;
}

const TITLED: ReadonlySet<NamedType> = new Set(['ticket', 'service_request', 'theme', 'job']);

/**
 * A model's name as people know it: its name, a user's full name or e-mail address, an event
 * inspection's moment.
 */
function modelName(model: LocalModel<NamedType>, i18n: I18n): string {
  const a = model.attributes as Readonly<Record<string, unknown>>;
  if (model.type === 'inspection' && typeof a.at === 'number')
    return i18n.date(new Date(a.at), { dateStyle: 'medium', timeStyle: 'short' });
  const text = (key: string) => {
    const value = a[key];
    return typeof value === 'string' ? value.trim() : '';
  };
  // A ticket, a service request, a theme and a job go by their title.
  if (TITLED.has(model.type)) return text('title');
  if (model.type === 'release') return `${text('name')} ${text('version')}`.trim();
  if (model.type !== 'user') return text('name');
  const full = `${text('firstname')} ${text('lastname')}`.trim();
  return full !== '' ? full : text('email');
}
