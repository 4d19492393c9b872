import type { Context } from 'hono';
import { LANGUAGES, type Language } from '@plant/shared-schema';
import type { AppEnv } from './context';

/**
 * The language of a page the server renders for a visitor: asked for by `?lang=`, else the
 * browser's first (Accept-Language) that we write, else English. Plain (message ids) only when
 * asked for by name.
 */
export function readerLang(c: Context<AppEnv>): Language {
  const asked = c.req.query('lang');
  if (asked !== undefined && (LANGUAGES as readonly string[]).includes(asked))
    return asked as Language;
  for (const part of (c.req.header('accept-language') ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase().split('-')[0] ?? '';
    if (tag !== 'plain' && (LANGUAGES as readonly string[]).includes(tag)) return tag as Language;
  }
  return 'en';
}
