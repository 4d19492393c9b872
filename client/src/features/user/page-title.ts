import { useEffect } from 'react';

/** The tab's title for a screen of the user area (WCAG 2.4.2: each page says what it is). */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Machine Platform`;
  }, [title]);
}
