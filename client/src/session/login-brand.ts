import { hexColorField, NO_DESIGN, type AccountDesign } from '@plant/shared-schema';
import { readJson, STORAGE_KEYS, writeJson } from '../state/storage';

/**
 * What the sign-in screen shows of a theme (issue 36): its title, login image, the logo for its
 * dark band (the dark variant when there is one) and its colours.
 */
export interface LoginBrand {
  readonly title: string;
  readonly loginImage: string | null;
  /** The logo on a light page (no Color2). */
  readonly logo: string | null;
  /** The logo on the band of Color2, which white text can be read on: a dark background. */
  readonly logoOnDark: string | null;
  readonly color1: string | null;
  readonly color2: string | null;
}

/** A design as the sign-in screen shows it; `title` when the design has none. */
export function brandOf(design: AccountDesign, title: string): LoginBrand {
  return {
    title: design.title ?? title,
    loginImage: design.loginImage,
    logo: design.logoDesktop ?? design.logoMobile,
    logoOnDark:
      design.logoDesktopDark ?? design.logoMobileDark ?? design.logoDesktop ?? design.logoMobile,
    color1: design.color1,
    color2: design.color2,
  };
}

/**
 * The brand to remember for the sign-in page while an account is open, or null to keep what is
 * remembered. `live` is the account's synced design (null while its model is not in the local
 * store), `stored` the one the session kept from the sign-in, `liveSeen` whether this account's
 * model was in the store earlier. Once it was, an emptied store (a sign-out wipes the store
 * before it forgets the session) must not bring the sign-in's design back over a newer save.
 */
export function brandToRemember(account: {
  readonly name: string;
  readonly live: AccountDesign | null;
  readonly stored: AccountDesign | null;
  readonly liveSeen: boolean;
}): LoginBrand | null {
  const { name, live, stored, liveSeen } = account;
  if (name === '') return null;
  if (live !== null) return brandOf(live, name);
  if (liveSeen) return null;
  return brandOf(stored ?? NO_DESIGN, name);
}

/** The account last worked in on this device: its brand, kept over sign-out like the language. */
export function rememberLoginBrand(brand: LoginBrand): void {
  writeJson(STORAGE_KEYS.loginBrand, brand);
}

/** The brand of this host's tied account as /staticconf said last (for the sign-in page offline). */
export function rememberHostBrand(brand: LoginBrand | null): void {
  writeJson(STORAGE_KEYS.hostBrand, brand);
}

export function loginBrand(): LoginBrand | null {
  return brandFrom(readJson(STORAGE_KEYS.loginBrand));
}

export function hostBrand(): LoginBrand | null {
  return brandFrom(readJson(STORAGE_KEYS.hostBrand));
}

/** A stored brand, each field checked (another build or a hand may have written it). */
function brandFrom(value: unknown): LoginBrand | null {
  if (typeof value !== 'object' || value === null) return null;
  const { title, loginImage, logo, logoOnDark, color1, color2 } = value as Record<string, unknown>;
  if (typeof title !== 'string' || title === '') return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const colour = (v: unknown) => (hexColorField.safeParse(v).success ? (v as string) : null);
  return {
    title,
    loginImage: text(loginImage),
    logo: text(logo),
    logoOnDark: text(logoOnDark),
    color1: colour(color1),
    color2: colour(color2),
  };
}
