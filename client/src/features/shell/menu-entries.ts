import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import type { Language, RouteRequirement } from '@plant/shared-schema';
import {
  IconAccounts,
  IconAlarm,
  IconAsset,
  IconDashboard,
  IconDetails,
  IconFeedback,
  IconGateway,
  IconHelp,
  IconHistory,
  IconHome,
  IconPalette,
  IconRelease,
  IconReport,
  IconService,
  IconShield,
  IconTask,
  IconTemplate,
  IconTranslate,
  IconUsers,
  type IconProps,
} from '../../components/icons';
import { safeDecode } from '../../components/safe-decode';
import { AREAS } from '../../routes/areas';
import type {
  MENU_GROUP_KEYS,
  MenuEntry,
  MenuGroupKey,
  MenuIconName,
  MenuWhere,
} from './menu-types';

export type {
  AreaMenuEntry,
  MenuEntry,
  MenuEntryDefinition,
  MenuGroupKey,
  MenuIconName,
  MenuWhere,
} from './menu-types';

/**
 * The side menu (spec 000 §2 "Menu entries"): its groups, as people work (running the plant,
 * getting service, administering), and the entries the areas declare in their `routes.tsx`
 * (gathered through `routes/areas.ts`, each saying its group and its place there). An entry needs
 * what its route needs (ROUTE_REQUIREMENTS, the same objects the route guards check); areas
 * without a permission of their own are shown to everyone. The labels are the routes' titles, so
 * one translation serves both.
 */

/** The groups, in the order they are drawn. */
const GROUPS = [
  { key: 'operations', label: msg`Operations` },
  { key: 'service', label: msg`Service` },
  { key: 'administration', label: msg`Administration` },
] as const satisfies readonly { key: (typeof MENU_GROUP_KEYS)[number]; label: unknown }[];

/**
 * The menu's icons by name. Areas name their entry's icon rather than import it: their route
 * modules are in the entry chunk, the icons only in the menu's (the app layout's).
 */
const MENU_ICONS = {
  accounts: IconAccounts,
  alarm: IconAlarm,
  asset: IconAsset,
  dashboard: IconDashboard,
  details: IconDetails,
  feedback: IconFeedback,
  gateway: IconGateway,
  help: IconHelp,
  history: IconHistory,
  home: IconHome,
  palette: IconPalette,
  release: IconRelease,
  report: IconReport,
  service: IconService,
  shield: IconShield,
  task: IconTask,
  template: IconTemplate,
  translate: IconTranslate,
  users: IconUsers,
} as const satisfies Record<MenuIconName, ComponentType<IconProps>>;

export interface MenuGroup {
  readonly key: MenuGroupKey;
  readonly label: MessageDescriptor;
  readonly entries: readonly MenuEntry[];
}

/** Path segments under /app/devices that are screens, not asset ids. */
const DEVICE_SCREENS = new Set(['list', 'demo']);

/**
 * The asset the path is about, if any: /app/devices/{id}/… and /app/devices/3dmodel/{id}/….
 * Details (spec 000 §2) leads to its details and is hidden everywhere else.
 */
export function currentAssetId(pathname: string): string | null {
  const [, app, devices, first, second] = pathname.split('/');
  if (app !== 'app' || devices !== 'devices' || first === undefined || first === '') return null;
  if (first === '3dmodel') return second === undefined || second === '' ? null : safeDecode(second);
  return DEVICE_SCREENS.has(first) ? null : safeDecode(first);
}

/**
 * Every group with every entry the areas show on this path, before permissions; areas not built
 * yet (`placeholder`) show none.
 */
export function menuGroups(pathname: string, language: Language): MenuGroup[] {
  const where: MenuWhere = { assetId: currentAssetId(pathname), language };
  const built = AREAS.flatMap((a) => a.menu ?? []).filter((m) => m.placeholder !== true);
  const placed = built.flatMap(({ group, position, entry }) => {
    const shown = typeof entry === 'function' ? entry(where) : entry;
    return shown === null ? [] : [{ group, position, entry: shown }];
  });
  return GROUPS.map((g) => ({
    key: g.key,
    label: g.label,
    entries: placed
      .filter((p) => p.group === g.key)
      .sort((a, b) => a.position - b.position)
      .map(({ entry }) => ({ ...entry, icon: MENU_ICONS[entry.icon] })),
  }));
}

/** The groups the user may see: entries it may not enter go, and so do groups left empty. */
export function permittedGroups(
  groups: readonly MenuGroup[],
  mayEnter: (requirement: RouteRequirement | undefined) => boolean,
): MenuGroup[] {
  return groups
    .map((g) => ({ ...g, entries: g.entries.filter((e) => mayEnter(e.requirement)) }))
    .filter((g) => g.entries.length > 0);
}

/** The entry the path belongs to: the longest section that contains it. */
export function currentEntryKey(groups: readonly MenuGroup[], pathname: string): string | null {
  let best: MenuEntry | null = null;
  for (const entry of groups.flatMap((g) => g.entries)) {
    const { section } = entry;
    if (section === null) continue;
    const inside = pathname === section || pathname.startsWith(`${section}/`);
    if (inside && (best?.section ?? '').length < section.length) best = entry;
  }
  return best?.key ?? null;
}
