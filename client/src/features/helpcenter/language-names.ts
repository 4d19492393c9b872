import { LANGUAGE_ENDONYMS, type Language } from '@plant/shared-schema';

/** Each content language by its own name (an endonym is never translated). */
export const HELP_LANGUAGE_NAMES: Record<Language, string> = LANGUAGE_ENDONYMS;

export const HELP_LANGUAGES = [
  'en',
  'de',
  'pt',
  'ru',
  'plain',
] as const satisfies readonly Language[];

export function isHelpLanguage(value: string): value is Language {
  return (HELP_LANGUAGES as readonly string[]).includes(value);
}
