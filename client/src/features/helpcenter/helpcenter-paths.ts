import type { Language } from '@plant/shared-schema';

/** The help center the menu opens: the default one, in the user's language (Plain: English). */
export function helpCenterPath(language: Language): string {
  return `/app/helpcenter/default/${language === 'plain' ? 'en' : language}`;
}
