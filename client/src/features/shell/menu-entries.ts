import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import { ROUTE_REQUIREMENTS, type Language, type RouteRequirement } from '@plant/shared-schema';
import {
  IconAccounts,
  IconAlarm,
  IconAsset,
  IconDashboard,
  IconDetails,
  IconGateway,
  IconHelp,
  IconHistory,
  IconHome,
  IconPalette,
  IconRelease,
  IconService,
  IconShield,
  IconTranslate,
  IconUsers,
  type IconProps,
} from '../../components/icons';
import { safeDecode } from '../../components/safe-decode';
import { ALARMS_REQUIREMENT, alarmPaths } from '../alarms/alarm-paths';

/**
 * The side menu's entries (spec 000 §2 "Menu entries"), grouped as people work: running the
 * plant, getting service, administering. An entry needs what its route needs (ROUTE_REQUIREMENTS,
 * the same objects the route guards check); areas without a permission of their own are shown to
 * everyone. The labels are the routes' titles, so one translation serves both.
 */

export type MenuEntryKey =
  | 'home'
  | 'assets'
  | 'details'
  | 'alarms'
  | 'gateways'
  | 'dashboards'
  | 'service'
  | 'serviceHistory'
  | 'helpcenter'
  | 'users'
  | 'accounts'
  | 'securityInsights'
  | 'versions'
  | 'themes'
  | 'translations';

export interface MenuEntry {
  readonly key: MenuEntryKey;
  readonly label: MessageDescriptor;
  readonly icon: ComponentType<IconProps>;
  /** Where the entry leads. */
  readonly to: string;
  /**
   * The paths the entry stands for (itself and below). The current entry is the one with the
   * longest matching prefix, so "Past service requests" wins over "Service requests" on
   * /app/service/history. Empty: never current (home only forwards).
   */
  readonly section: string | null;
  readonly requirement?: RouteRequirement;
  /** Drawn indented under the entry before it (details under assets). */
  readonly nested?: boolean;
  /** A live count beside the label (alarms: those that need someone). */
  readonly badge?: 'alarms';
}

export interface MenuGroup {
  readonly key: string;
  readonly label: MessageDescriptor;
  readonly entries: readonly MenuEntry[];
}

/** The help center the menu opens: the default one, in the user's language (Plain: English). */
export function helpCenterPath(language: Language): string {
  return `/app/helpcenter/default/${language === 'plain' ? 'en' : language}`;
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

/** Every group with every entry (details only on an asset), before permissions. */
export function menuGroups(pathname: string, language: Language): MenuGroup[] {
  const assetId = currentAssetId(pathname);
  const details: MenuEntry[] =
    assetId === null
      ? []
      : [
          {
            key: 'details',
            label: msg`Details`,
            icon: IconDetails,
            to: `/app/devices/${encodeURIComponent(assetId)}/details`,
            section: `/app/devices/${encodeURIComponent(assetId)}`,
            nested: true,
          },
        ];
  return [
    {
      key: 'operations',
      label: msg`Operations`,
      entries: [
        { key: 'home', label: msg`Home`, icon: IconHome, to: '/app/devices', section: null },
        {
          key: 'assets',
          label: msg`Assets`,
          icon: IconAsset,
          to: '/app/devices/list',
          section: '/app/devices',
        },
        ...details,
        {
          key: 'alarms',
          label: msg`Alarms`,
          icon: IconAlarm,
          to: alarmPaths.list(),
          section: alarmPaths.list(),
          requirement: ALARMS_REQUIREMENT,
          badge: 'alarms',
        },
        {
          key: 'gateways',
          label: msg`Gateways`,
          icon: IconGateway,
          to: '/app/gateways/list',
          section: '/app/gateways',
          requirement: ROUTE_REQUIREMENTS.gateways,
        },
        {
          key: 'dashboards',
          label: msg`Dashboards`,
          icon: IconDashboard,
          to: '/app/dashboards/list',
          section: '/app/dashboards',
        },
      ],
    },
    {
      key: 'service',
      label: msg`Service`,
      entries: [
        {
          key: 'service',
          label: msg`Service requests`,
          icon: IconService,
          to: '/app/service',
          section: '/app/service',
        },
        {
          key: 'serviceHistory',
          label: msg`Past service requests`,
          icon: IconHistory,
          to: '/app/service/history',
          section: '/app/service/history',
        },
        {
          key: 'helpcenter',
          label: msg`Help center`,
          icon: IconHelp,
          to: helpCenterPath(language),
          section: '/app/helpcenter',
          requirement: ROUTE_REQUIREMENTS.helpcenter,
        },
      ],
    },
    {
      key: 'administration',
      label: msg`Administration`,
      entries: [
        {
          key: 'users',
          label: msg`Users`,
          icon: IconUsers,
          to: '/app/users/list',
          section: '/app/users',
        },
        {
          key: 'accounts',
          label: msg`Accounts`,
          icon: IconAccounts,
          to: '/app/accounts/list',
          section: '/app/accounts',
          requirement: ROUTE_REQUIREMENTS.accounts,
        },
        {
          key: 'securityInsights',
          label: msg`Security insights`,
          icon: IconShield,
          to: '/app/security-insights/overview',
          section: '/app/security-insights',
          requirement: ROUTE_REQUIREMENTS.securityInsights,
        },
        {
          key: 'versions',
          label: msg`Release management`,
          icon: IconRelease,
          to: '/app/versions',
          section: '/app/versions',
        },
        {
          key: 'themes',
          label: msg`Themes`,
          icon: IconPalette,
          to: '/app/themes/list',
          section: '/app/themes',
        },
        {
          key: 'translations',
          label: msg`Translations`,
          icon: IconTranslate,
          to: '/app/translations/list',
          section: '/app/translations',
        },
      ],
    },
  ];
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
export function currentEntryKey(
  groups: readonly MenuGroup[],
  pathname: string,
): MenuEntryKey | null {
  let best: MenuEntry | null = null;
  for (const entry of groups.flatMap((g) => g.entries)) {
    const { section } = entry;
    if (section === null) continue;
    const inside = pathname === section || pathname.startsWith(`${section}/`);
    if (inside && (best?.section ?? '').length < section.length) best = entry;
  }
  return best?.key ?? null;
}
