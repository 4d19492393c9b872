import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Menu } from '@mantine/core';
import { Link, useLocation, useRouter } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { IconDots } from '../../components/icons';
import { safeDecode } from '../../components/safe-decode';
import { sessionAtom } from '../../state/session';
import { useLiveModel } from '../../sync/hooks';
import { ID_TYPES, SEGMENT_LABELS } from './breadcrumb-labels';
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
  /** The segment before it (what kind of id this is). */
  readonly previous: string | null;
  /** Whether the path is a page of its own (else the crumb is plain text). */
  readonly linked: boolean;
}

/** Crumbs for a path below /app; `isPage` tells which partial paths are pages. */
export function crumbsOf(pathname: string, isPage: (path: string) => boolean): Crumb[] {
  const segments = pathname.split('/').filter((s) => s !== '');
  if (segments[0] !== 'app') return [];
  const crumbs: Crumb[] = [];
  let path = '/app';
  for (const [i, segment] of segments.slice(1).entries()) {
    path = `${path}/${segment}`;
    crumbs.push({ path, segment, previous: segments[i] ?? null, linked: isPage(path) });
  }
  return crumbs;
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
    return route !== undefined && (route.path === '/' || params['**'] === undefined);
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
          <CrumbItem key={crumb.path} crumb={crumb} current={false} />
        ))}
        {hidden.length > 0 ? (
          <li className={classes.crumb}>
            <Menu position="bottom-start" withinPortal>
              <Menu.Target>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="sm"
                  aria-label={t`Show ${hidden.length} more levels of the path`}
                  data-testid="breadcrumb-more"
                >
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {hidden.map((crumb) =>
                  crumb.linked ? (
                    <Menu.Item
                      key={crumb.path}
                      component={Link}
                      to={crumb.path}
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
          <CrumbItem key={crumb.path} crumb={crumb} current />
        ))}
      </ol>
    </nav>
  );
}

function CrumbItem({ crumb, current }: { readonly crumb: Crumb; readonly current: boolean }) {
  return (
    <li className={classes.crumb} data-testid="breadcrumb-item">
      {current ? (
        <span aria-current="page" className={classes.crumbCurrent}>
          <CrumbLabel crumb={crumb} />
        </span>
      ) : crumb.linked ? (
        // Exact: the router would mark every ancestor of the page as current.
        <Link to={crumb.path} className={classes.crumbLink} activeOptions={{ exact: true }}>
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
  const id = safeDecode(crumb.segment);
  const type = crumb.previous === null ? undefined : ID_TYPES[crumb.previous];
  if (type !== undefined) return <ModelName type={type} id={id} />;
  const account = session?.user.activeAccount;
  if (crumb.previous === 'accounts' && account?.id === id) return <Name>{account.name}</Name>;
  return <span title={id}>{shortId(id)}</span>;
}

function ModelName({
  type,
  id,
}: {
  readonly type: 'asset' | 'gateway' | 'template' | 'alarm';
  readonly id: string;
}) {
  const state = useLiveModel(type, id);
  const name = state.name === 'found' ? state.model.attributes.name : undefined;
  if (name !== undefined && name !== '') return <Name>{name}</Name>;
  return <span title={id}>{shortId(id)}</span>;
}
