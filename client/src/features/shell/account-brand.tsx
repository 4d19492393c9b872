import { useEffect, useRef } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import type { AccountDesign } from '@plant/shared-schema';
import { activeAccountIdAtom, sessionAtom } from '../../state/session';
import { brandToRemember, rememberLoginBrand } from '../../session/login-brand';
import { useLiveModel } from '../../sync/hooks';
import { BrandImage } from '../../components/brand-image';
import classes from './shell.module.css';

/** What app.css sets when the account has no colour. */
const DEFAULT_COLORS = {
  '--account-color1': 'var(--mantine-color-blue-6)',
  '--account-color2': 'var(--mantine-color-gray-7)',
} as const;

/**
 * The active account's design, live: the synced account model (a save on the design page, in
 * another tab or by another admin arrives here at once), else the one stored with the session.
 * Its colours go onto <html> (above GET style's <style>, which is read once per start) and its
 * title into the tab's title, so a change shows without a reload.
 */
export function useLiveAccountDesign(): {
  readonly name: string;
  readonly design: AccountDesign | null;
} {
  const stored = useAtomValue(sessionAtom)?.user.activeAccount ?? null;
  const id = useAtomValue(activeAccountIdAtom) ?? '';
  const live = useLiveModel('account', id);
  const model = live.name === 'found' ? live.model.attributes : null;
  const name = model?.name ?? stored?.name ?? '';
  const design = model?.theme ?? stored?.theme ?? null;
  const color1 = design?.color1 ?? null;
  const color2 = design?.color2 ?? null;
  const title = design?.title ?? null;
  const found = model !== null;
  useEffect(() => {
    // Not in the local store yet (an account switch empties it): GET style's colours show.
    if (!found) return;
    const root = document.documentElement.style;
    root.setProperty('--account-color1', color1 ?? DEFAULT_COLORS['--account-color1']);
    root.setProperty('--account-color2', color2 ?? DEFAULT_COLORS['--account-color2']);
    document.title = title ?? name;
    return () => {
      for (const key of Object.keys(DEFAULT_COLORS)) root.removeProperty(key);
    };
  }, [found, color1, color2, title, name]);
  // The account whose model this page has had in its store (a sign-out empties the store first).
  const liveSeenFor = useRef<string | null>(null);
  const liveDesign = model?.theme ?? null;
  const storedDesign = stored?.theme ?? null;
  useEffect(() => {
    if (liveDesign !== null) liveSeenFor.current = id;
    const brand = brandToRemember({
      name,
      live: liveDesign,
      stored: storedDesign,
      liveSeen: liveSeenFor.current === id,
    });
    if (brand !== null) rememberLoginBrand(brand);
  }, [id, name, liveDesign, storedDesign]);
  return { name, design };
}

/**
 * The account's logo (desktop or mobile one, from its live design), else its name; leads to the
 * start page. On narrow screens without a logo it stays away: the account switcher shows the name.
 */
export function AccountBrand({ narrow }: { readonly narrow: boolean }) {
  const { t } = useLingui();
  const { name, design } = useLiveAccountDesign();
  const desktop = design?.logoDesktop ?? null;
  const mobile = design?.logoMobile ?? null;
  const logo = narrow ? mobile : (desktop ?? mobile);
  const nameText = <bdi className={classes.brandName}>{name}</bdi>;
  if (narrow && logo === null) return null;
  return (
    <Link
      to="/app/devices"
      className={classes.brand}
      title={t`Start page`}
      data-testid="account-brand"
    >
      {logo === null ? (
        nameText
      ) : (
        <BrandImage
          src={logo}
          alt={name}
          className={logo === desktop ? classes.logo : `${classes.logo} ${classes.logoMobile}`}
          fallback={nameText}
          testId="brand-logo"
        />
      )}
    </Link>
  );
}
