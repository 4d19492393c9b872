import { useParams } from '@tanstack/react-router';
import type { Language } from '@plant/shared-schema';
import { isHelpLanguage } from './language-names';

/** The language of the route (`/app/helpcenter/{id}/{lang}`); an unknown one reads English. */
export function useRouteLanguage(): Language {
  const { helpcenterlang = 'en' }: { helpcenterlang?: string } = useParams({ strict: false });
  return isHelpLanguage(helpcenterlang) ? helpcenterlang : 'en';
}
