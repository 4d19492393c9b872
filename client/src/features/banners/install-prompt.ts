import { atom } from 'jotai';
import type { AppStore } from '../../state/store';

/**
 * The browser's offer to install the app (`beforeinstallprompt`, Chromium's): kept from the
 * page's start, since it fires once, often before anyone has signed in and the banner exists.
 */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ readonly outcome: 'accepted' | 'dismissed' }>;
}

/** The offer while it stands: null before it came, after it was used, or once installed. */
export const installPromptAtom = atom<InstallPromptEvent | null>(null);

/** The app was installed from this page (`appinstalled`). */
export const appInstalledAtom = atom(false);

function isInstallPrompt(event: Event): event is InstallPromptEvent {
  return 'prompt' in event && typeof event.prompt === 'function';
}

/** Listens for the offer and the installation; call once, at start. */
export function listenForInstallPrompt(store: AppStore): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    if (!isInstallPrompt(event)) return;
    // The browser's own mini-infobar stays away: the banner offers it when it suits.
    event.preventDefault();
    store.set(installPromptAtom, event);
  });
  window.addEventListener('appinstalled', () => {
    store.set(appInstalledAtom, true);
    store.set(installPromptAtom, null);
  });
}
