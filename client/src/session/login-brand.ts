import { readJson, STORAGE_KEYS, writeJson } from '../state/storage';

/** What the sign-in screen shows of the account last worked in on this device. */
export interface LoginBrand {
  readonly title: string;
  readonly loginImage: string | null;
}

export function rememberLoginBrand(brand: LoginBrand): void {
  writeJson(STORAGE_KEYS.loginBrand, brand);
}

/** The remembered brand, or null when none (or not readable). */
export function loginBrand(): LoginBrand | null {
  const value = readJson(STORAGE_KEYS.loginBrand);
  if (typeof value !== 'object' || value === null) return null;
  const { title, loginImage } = value as Record<string, unknown>;
  if (typeof title !== 'string' || title === '') return null;
  return { title, loginImage: typeof loginImage === 'string' ? loginImage : null };
}
