import type { MessageDescriptor } from '@lingui/core';
import type { ComponentType } from 'react';
import type { Language, RouteRequirement } from '@plant/shared-schema';
import type { IconProps } from '../../components/icons';

/*
 * The side menu's types, apart from its code (menu-entries.ts): an area's routes.tsx declares its
 * entries with them, and menu-entries.ts gathers the areas, so they cannot live there without an
 * import circle.
 */

/** The menu's groups, in the order they are drawn (labels in menu-entries.ts). */
export const MENU_GROUP_KEYS = ['operations', 'service', 'administration'] as const;
export type MenuGroupKey = (typeof MENU_GROUP_KEYS)[number];

/** The menu's icons by name (menu-entries.ts maps each to its component). */
export type MenuIconName =
  | 'accounts'
  | 'alarm'
  | 'asset'
  | 'dashboard'
  | 'details'
  | 'feedback'
  | 'gateway'
  | 'help'
  | 'history'
  | 'home'
  | 'palette'
  | 'release'
  | 'report'
  | 'service'
  | 'shield'
  | 'task'
  | 'template'
  | 'translate'
  | 'users';

export interface MenuEntry {
  /** Unique in the menu: the current entry's key, and `data-menu-entry` on its link. */
  readonly key: string;
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
  readonly badge?: 'alarms' | 'tasks';
}

/** An entry as its area declares it: the icon by its name. */
export type MenuEntryDefinition = Omit<MenuEntry, 'icon'> & { readonly icon: MenuIconName };

/** What an entry may depend on: the asset the page is about (currentAssetId), the language. */
export interface MenuWhere {
  readonly assetId: string | null;
  readonly language: Language;
}

/** An area's entry in the menu (`AreaDefinition.menu`). */
export interface AreaMenuEntry {
  readonly group: MenuGroupKey;
  /** Its place in the group: smaller first. Unique in the group (tens leave room between). */
  readonly position: number;
  /** The entry, or a function of where the user is (null: not shown there). */
  readonly entry: MenuEntryDefinition | ((where: MenuWhere) => MenuEntryDefinition | null);
  /**
   * The area is not built yet (its pages are the empty state 'Nothing here yet'): the entry
   * stays out of the menu until the issue that builds it removes this (issue 30 item 3). Its
   * routes stay, so links and bookmarks of spec 000 §2 still open.
   */
  readonly placeholder?: true;
}
