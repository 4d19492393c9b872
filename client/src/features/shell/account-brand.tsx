import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { sessionAtom } from '../../state/session';
import classes from './shell.module.css';

const LOGO_VARS = {
  desktop: '--account-logo-desktop',
  mobile: '--account-logo-mobile',
} as const;

interface AccountLogos {
  readonly desktop: boolean;
  readonly mobile: boolean;
}

function readLogos(): AccountLogos {
  const style = getComputedStyle(document.documentElement);
  const set = (name: string) => style.getPropertyValue(name).trim() !== '';
  return { desktop: set(LOGO_VARS.desktop), mobile: set(LOGO_VARS.mobile) };
}

/**
 * Which logos the account's style (session/style.ts, a <style> in <head> replaced on every
 * account switch) sets: read from the page's computed style, again whenever <head> changes.
 */
function useAccountLogos(): AccountLogos {
  const [logos, setLogos] = useState(readLogos);
  useEffect(() => {
    const observer = new MutationObserver(() => {
      const next = readLogos();
      setLogos((prev) =>
        prev.desktop === next.desktop && prev.mobile === next.mobile ? prev : next,
      );
    });
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return logos;
}

/**
 * The account's logo (desktop or mobile one, from its style), else its name; leads to the start
 * page. On narrow screens without a logo it stays away: the account switcher shows the name.
 */
export function AccountBrand({ narrow }: { readonly narrow: boolean }) {
  const { t } = useLingui();
  const account = useAtomValue(sessionAtom)?.user.activeAccount ?? null;
  const logos = useAccountLogos();
  const name = account?.name ?? '';
  const logo = narrow
    ? logos.mobile
      ? LOGO_VARS.mobile
      : null
    : logos.desktop
      ? LOGO_VARS.desktop
      : logos.mobile
        ? LOGO_VARS.mobile
        : null;
  if (narrow && logo === null) return null;
  return (
    <Link
      to="/app/devices"
      className={classes.brand}
      title={t`Start page`}
      data-testid="account-brand"
    >
      {logo === null ? (
        <bdi className={classes.brandName}>{name}</bdi>
      ) : (
        <span
          role="img"
          aria-label={name}
          className={
            logo === LOGO_VARS.mobile ? `${classes.logo} ${classes.logoMobile}` : classes.logo
          }
          style={{ backgroundImage: `var(${logo})` }}
        />
      )}
    </Link>
  );
}
