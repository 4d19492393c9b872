import type { Language } from '@plant/shared-schema';

/** The one help centre of an account (spec 000 §2 names it by id; ours is `default`). */
export const HELP_CENTER_ID = 'default';

/** The language a help centre path names: the user's (Plain reads English). */
export function helpLanguage(language: Language): Exclude<Language, 'plain'> {
  return language === 'plain' ? 'en' : language;
}

/** The help center the menu opens: the default one, in the user's language (Plain: English). */
export function helpCenterPath(language: Language): string {
  return `/app/helpcenter/${HELP_CENTER_ID}/${helpLanguage(language)}`;
}

/** One article of the help centre, by its number (links like help/136). */
export function helpArticlePath(language: Language, number: number): string {
  return `/app/helpcenter/${HELP_CENTER_ID}/${language}/${number}`;
}

/** The author's editor of one article (by id: a new one has no number until the server gives it). */
export function helpEditorPath(language: Language, articleId: string): string {
  return `/app/helpcenter/${HELP_CENTER_ID}/${language}/edit/${articleId}`;
}
