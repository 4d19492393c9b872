import { atom } from 'jotai';
import {
  DEFAULT_DIRECTION,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
} from '@plant/shared-schema';
import { readJson, readString, STORAGE_KEYS, writeJson, writeString } from './storage';

export type Direction = 'ltr' | 'rtl';

function storedLanguage(): Language {
  const raw = readString(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(raw ?? '')
    ? (raw as Language)
    : DEFAULT_LANGUAGE;
}

function storedDirection(): Direction {
  const raw = readString(STORAGE_KEYS.direction);
  return raw === 'rtl' || raw === 'ltr' ? raw : DEFAULT_DIRECTION;
}

const languageValue = atom<Language>(storedLanguage());
const directionValue = atom<Direction>(storedDirection());

/** The chosen language (stored as currentLanguage; default en). app.tsx loads its catalogue. */
export const languageAtom = atom(
  (get) => get(languageValue),
  (_get, set, next: Language) => {
    writeString(STORAGE_KEYS.language, next);
    set(languageValue, next);
  },
);

/** Left-to-right or right-to-left (stored as direction; default ltr): mirrors the whole shell. */
export const directionAtom = atom(
  (get) => get(directionValue),
  (_get, set, next: Direction) => {
    writeString(STORAGE_KEYS.direction, next);
    set(directionValue, next);
  },
);

/**
 * The side menu's four display states (spec 000 §2: it cycles modulo 4), in cycle order:
 * - full: icons and labels, the page beside it;
 * - icons: a narrow rail of icons, labels as tooltips;
 * - hidden: no menu, the page takes the whole width;
 * - overlay: the rail, which opens over the page (not pushing it) while pointed at or focused.
 * Stored as the state's index (menuState); under 769 px the menu is a drawer whatever the state.
 */
export const MENU_STATES = ['full', 'icons', 'hidden', 'overlay'] as const;
export type MenuState = (typeof MENU_STATES)[number];

/** The user's choice, or null: none yet, the screen's width decides (`defaultMenuState`). */
function storedMenuState(): MenuState | null {
  const stored = readString(STORAGE_KEYS.menuState);
  if (stored === null) return null;
  const index = Number(stored);
  return MENU_STATES[Number.isInteger(index) ? index % MENU_STATES.length : 0] ?? 'full';
}

/**
 * Before the user chooses (issue 30 item 12): the full menu on a wide screen, its icons on a
 * tablet's (1024 px and less), where the full one takes a quarter of the page.
 */
export function defaultMenuState(tablet: boolean): MenuState {
  return tablet ? 'icons' : 'full';
}

const menuStateValue = atom<MenuState | null>(storedMenuState());

/** The chosen display state of the side menu, null until the user chooses one. */
export const menuStateAtom = atom(
  (get) => get(menuStateValue),
  (_get, set, next: MenuState) => {
    writeString(STORAGE_KEYS.menuState, String(MENU_STATES.indexOf(next)));
    set(menuStateValue, next);
  },
);

/** The next display state of the cycle (modulo 4). */
export function nextMenuState(state: MenuState): MenuState {
  return MENU_STATES[(MENU_STATES.indexOf(state) + 1) % MENU_STATES.length] ?? 'full';
}

/** Page transitions (spec 000 §2, §9: fade by default, or slide). */
export const TRANSITIONS = ['fade', 'slide'] as const;
export type Transition = (typeof TRANSITIONS)[number];

function storedTransition(): Transition {
  return readString(STORAGE_KEYS.transition) === 'slide' ? 'slide' : 'fade';
}

const transitionValue = atom<Transition>(storedTransition());

export const transitionAtom = atom(
  (get) => get(transitionValue),
  (_get, set, next: Transition) => {
    writeString(STORAGE_KEYS.transition, next);
    set(transitionValue, next);
  },
);

/** The asset overview's views (issue 16): cards, the table, the map. */
export const DEVICE_VIEWS = ['panel', 'table', 'map'] as const;
export type DeviceView = (typeof DEVICE_VIEWS)[number];

function storedDeviceView(): DeviceView {
  const raw = readString(STORAGE_KEYS.devicesView);
  return (DEVICE_VIEWS as readonly string[]).includes(raw ?? '') ? (raw as DeviceView) : 'table';
}

const deviceViewValue = atom<DeviceView>(storedDeviceView());

/** The view the asset overview shows (stored as devicesView; default the table). */
export const deviceViewAtom = atom(
  (get) => get(deviceViewValue),
  (_get, set, next: DeviceView) => {
    writeString(STORAGE_KEYS.devicesView, next);
    set(deviceViewValue, next);
  },
);

/** The asset table's optional columns (the name is always shown), in their order. */
export const DEVICE_COLUMNS = ['status', 'gateway', 'mac', 'tags', 'description'] as const;
export type DeviceColumn = (typeof DEVICE_COLUMNS)[number];
const DEFAULT_DEVICE_COLUMNS: readonly DeviceColumn[] = ['status', 'gateway', 'description'];

function storedDeviceColumns(): readonly DeviceColumn[] {
  const raw = readJson(STORAGE_KEYS.devicesColumns);
  if (!Array.isArray(raw)) return DEFAULT_DEVICE_COLUMNS;
  return DEVICE_COLUMNS.filter((c) => raw.includes(c));
}

const deviceColumnsValue = atom<readonly DeviceColumn[]>(storedDeviceColumns());

/** The optional columns the user chose (stored as devicesColumns; default today's three). */
export const deviceColumnsAtom = atom(
  (get) => get(deviceColumnsValue),
  (_get, set, next: readonly DeviceColumn[]) => {
    const ordered = DEVICE_COLUMNS.filter((c) => next.includes(c));
    writeJson(STORAGE_KEYS.devicesColumns, ordered);
    set(deviceColumnsValue, ordered);
  },
);
