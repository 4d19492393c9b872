import { lazy, memo, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, AppShell, Drawer, ScrollArea, Tooltip } from '@mantine/core';
import { useMediaQuery, useReducedMotion } from '@mantine/hooks';
import { Outlet, useLocation } from '@tanstack/react-router';
import { useAtom } from 'jotai';
import { IconMenu } from '../../components/icons';
import {
  defaultMenuState,
  menuStateAtom,
  nextMenuState,
  type MenuState,
} from '../../state/preferences';
import { useCan } from '../../permissions/permissions';
import { AccountWords, EditTexts } from '../../i18n/edit-texts';
import { AccountBrand } from './account-brand';
import { AccountSwitcher } from './account-switcher';
import { Breadcrumb } from './breadcrumb';
import { PageTransition } from './page-transition';
import { SideMenuLinks } from './side-menu';
import { BootstrapProgress, SyncIndicator } from './sync-indicator';
import { UserMenu } from './user-menu';
import classes from './shell.module.css';
import menuClasses from './side-menu.module.css';

/*
 * The banners (install the app, allow notifications) with the push subscription's code: loaded
 * after the shell (issue 36 kept the first visit within its budget), they need no first paint.
 */
const Banners = lazy(() => import('../banners/banners').then((m) => ({ default: m.Banners })));

/** Spec 000 §9: mobile is a width under 769 px. */
export const NARROW_QUERY = '(max-width: 768px)';
/** A tablet's width (1024 x 768 landscape): the menu starts as icons there. */
export const TABLET_QUERY = '(max-width: 1024px)';

const MENU_WIDTH = { full: 248, rail: 64 } as const;

/**
 * The frame of /app: header (account brand, menu button, sync state, account switcher, user
 * menu), the side menu, and the page under its breadcrumb. Wide screens show the menu in its
 * stored display state; narrow ones open it as a drawer from the inline start.
 */
/** An agent's incoming calls (issue 34), loaded for agents only. */
const CallRinger = lazy(() =>
  import('../service/call/call-ringer').then((m) => ({ default: m.CallRinger })),
);
/** shared-schema's SERVICE_PERMISSIONS.agent (its module carries schemas the shell does not need). */
const SERVICE_AGENT = 'servicerequest::agent';

export function AppLayout() {
  const { t } = useLingui();
  const can = useCan();
  const narrow = useMediaQuery(NARROW_QUERY, matchMedia(NARROW_QUERY).matches, {
    getInitialValueInEffect: false,
  });
  const reduced = useReducedMotion();
  const tablet = useMediaQuery(TABLET_QUERY, matchMedia(TABLET_QUERY).matches, {
    getInitialValueInEffect: false,
  });
  const [chosenMenuState, setMenuState] = useAtom(menuStateAtom);
  const menuState = chosenMenuState ?? defaultMenuState(tablet);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pathname = useLocation({ select: (l) => l.pathname });
  const menuId = useId();

  // A drawer left open would cover the page that was just chosen.
  useEffect(() => setDrawerOpen(false), [pathname, narrow]);

  // The header stays as it is while the page changes: its toggle's handler is one function.
  const toggleNow = useRef(() => {});
  toggleNow.current = () =>
    narrow ? setDrawerOpen((o) => !o) : setMenuState(nextMenuState(menuState));
  const onToggle = useCallback(() => toggleNow.current(), []);

  const stateLabels: Record<MenuState, string> = {
    full: t`full`,
    icons: t`icons only`,
    hidden: t`hidden`,
    overlay: t`overlay`,
  };
  const now = stateLabels[menuState];
  const toggleLabel = narrow ? t`Open menu` : t`Change the menu display (now ${now})`;

  return (
    <AppShell
      header={{ height: 59 }}
      {...(narrow
        ? {}
        : {
            navbar: {
              width: menuState === 'full' ? MENU_WIDTH.full : MENU_WIDTH.rail,
              // Mantine's own narrow mode stays unused (1 px): narrow screens get the Drawer.
              breakpoint: 1,
              collapsed: { desktop: menuState === 'hidden', mobile: false },
            },
          })}
      padding="md"
      transitionDuration={reduced ? 0 : 200}
    >
      <AppHeader
        narrow={narrow}
        toggleLabel={toggleLabel}
        menuId={menuId}
        expanded={narrow ? drawerOpen : menuState !== 'hidden'}
        onToggle={onToggle}
      />
      {narrow ? (
        <Drawer
          opened={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          // Mantine's 'left' is the inline start: the right in right-to-left.
          position="left"
          size={280}
          title={<Trans>Menu</Trans>}
          transitionProps={{ duration: reduced ? 0 : 200 }}
        >
          <nav
            id={menuId}
            aria-label={t`Main menu`}
            className={menuClasses.nav}
            data-menu-state="drawer"
          >
            <SideMenuLinks state="full" onNavigate={() => setDrawerOpen(false)} />
          </nav>
        </Drawer>
      ) : (
        <AppShell.Navbar
          id={menuId}
          aria-label={t`Main menu`}
          className={menuClasses.nav}
          data-menu-state={menuState}
          inert={menuState === 'hidden'}
        >
          <AppShell.Section grow component={ScrollArea} scrollbarSize={6}>
            <SideMenuLinks state={menuState} />
          </AppShell.Section>
        </AppShell.Navbar>
      )}
      <AppShell.Main id="main" tabIndex={-1} className={classes.main}>
        <Suspense fallback={null}>
          <Banners />
        </Suspense>
        {can(SERVICE_AGENT) ? (
          <Suspense fallback={null}>
            <CallRinger />
          </Suspense>
        ) : null}
        <Breadcrumb narrow={narrow} />
        <PageTransition>
          <Outlet />
        </PageTransition>
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The header: the menu's toggle, the account's brand and words, sync state, account switcher and
 * user menu. Kept apart from the layout (which follows the path to close its drawer) so that a
 * navigation does not render it again: its parts follow what they show themselves.
 */
const AppHeader = memo(function AppHeader(props: {
  readonly narrow: boolean;
  readonly toggleLabel: string;
  readonly menuId: string;
  readonly expanded: boolean;
  readonly onToggle: () => void;
}) {
  const { narrow, toggleLabel } = props;
  return (
    <AppShell.Header className={classes.header}>
      <a href="#main" className={classes.skipLink}>
        <Trans>Skip to content</Trans>
      </a>
      <div className={classes.headerRow}>
        <Tooltip label={toggleLabel} disabled={narrow}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={toggleLabel}
            aria-controls={props.menuId}
            aria-expanded={props.expanded}
            data-testid="menu-toggle"
            onClick={props.onToggle}
          >
            <IconMenu size={22} />
          </ActionIcon>
        </Tooltip>
        <AccountBrand narrow={narrow} />
        <AccountWords />
        <EditTexts />
        <div className={classes.spacer} />
        <SyncIndicator />
        <AccountSwitcher narrow={narrow} />
        <UserMenu />
      </div>
      <div className={classes.progress}>
        <BootstrapProgress />
      </div>
    </AppShell.Header>
  );
});
