import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';

/** The tab's title for a screen of the user area (WCAG 2.4.2: each page says what it is). */
export function usePageTitle(title: string): void {
  const { t } = useLingui();
  // The product's name, through the catalogue like every text (it stays "Machine Platform").
  const brand = t`Machine Platform`;
  useEffect(() => {
    document.title = `${title} · ${brand}`;
  }, [title, brand]);
}
