import { atom } from 'jotai';
import {
  DEFAULT_DIRECTION,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
} from '@plant/shared-schema';
import { readString, STORAGE_KEYS, writeString } from './storage';

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

/** The chosen language (stored as currentLanguage; default en). I18nGate loads its catalogue. */
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
