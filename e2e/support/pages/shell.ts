import type { Locator, Page } from 'playwright-core';

/** The side menu's display states, in cycle order (client state/preferences.ts MENU_STATES). */
export const MENU_STATES = ['full', 'icons', 'hidden', 'overlay'] as const;
export type MenuState = (typeof MENU_STATES)[number];

/**
 * The page model of the /app frame (client features/shell): header, side menu (or drawer),
 * breadcrumb, account switcher and user menu. English texts, as AppTab says.
 */
export class ShellPage {
  constructor(readonly page: Page) {}

  /** The main menu's landmark (the side menu, or the drawer's nav on narrow screens). */
  menu(): Locator {
    return this.page.getByRole('navigation', { name: 'Main menu' });
  }

  main(): Locator {
    return this.page.getByRole('main');
  }

  header(): Locator {
    return this.page.getByRole('banner');
  }

  /** The menu's entries by their names, in order. */
  async menuEntries(): Promise<string[]> {
    // The entries' words, without their counts (alarms, tasks due).
    const labels = this.menu().getByRole('link').locator('[data-menu-label]');
    return (await labels.allTextContents()).map((s) => s.trim());
  }

  /** The entry marked aria-current="page". */
  async currentEntry(): Promise<string | null> {
    const current = this.menu().locator('a[aria-current="page"]');
    if ((await current.count()) === 0) return null;
    return (await current.locator('[data-menu-label]').textContent())?.trim() ?? null;
  }

  /** The side menu's display state (also while hidden, when it is no landmark to find). */
  async menuState(): Promise<string | null> {
    return this.page.locator('nav[data-menu-state]').getAttribute('data-menu-state');
  }

  menuToggle(): Locator {
    return this.page.getByTestId('menu-toggle');
  }

  /** Wide screens: the next display state. Narrow ones: opens or closes the drawer. */
  async toggleMenu(): Promise<void> {
    await this.menuToggle().click();
  }

  breadcrumb(): Locator {
    return this.page.getByRole('navigation', { name: 'Breadcrumb' });
  }

  /** The breadcrumb's visible items' texts (the collapse menu not counted). */
  async crumbs(): Promise<string[]> {
    const items = this.breadcrumb().getByTestId('breadcrumb-item');
    return (await items.allTextContents()).map((s) => s.trim());
  }

  crumbsMore(): Locator {
    return this.breadcrumb().getByTestId('breadcrumb-more');
  }

  /** Opens the collapse menu and answers its items' texts. */
  async hiddenCrumbs(): Promise<string[]> {
    await this.crumbsMore().click();
    const items = this.page.getByRole('menu').getByRole('menuitem');
    await items.first().waitFor();
    const texts = (await items.allTextContents()).map((s) => s.trim());
    await this.page.keyboard.press('Escape');
    // Closed before the next ask: a click on a closing menu's button would open nothing.
    await this.page.getByRole('menu').waitFor({ state: 'detached' });
    return texts;
  }

  /** Opens the collapse menu and answers where its items lead (closed again after). */
  async hiddenCrumbLinks(): Promise<(string | null)[]> {
    await this.crumbsMore().click();
    const items = this.page.getByRole('menu').getByRole('menuitem');
    await items.first().waitFor();
    const hrefs = await items.evaluateAll((all) => all.map((i) => i.getAttribute('href')));
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('menu').waitFor({ state: 'detached' });
    return hrefs;
  }

  accountSwitcher(): Locator {
    return this.page.getByTestId('account-switcher');
  }

  /** Opens the account switcher and waits for its accounts. */
  async openAccountSwitcher(): Promise<Locator> {
    await this.accountSwitcher().click();
    const options = this.page.getByTestId('account-option');
    await options.first().waitFor();
    return options;
  }

  accountOption(name: string): Locator {
    return this.page.getByTestId('account-option').filter({ hasText: name });
  }

  switchOverlay(): Locator {
    return this.page.getByTestId('account-switch-overlay');
  }

  /** Opens the user menu (language, direction, transition, sign-out). */
  async openUserMenu(): Promise<void> {
    await this.page.getByTestId('user-menu').click();
    await this.page.getByTestId('user-menu-dropdown').waitFor();
  }

  /** Chooses a radio item of the user menu (a language by its own name, a direction, …). */
  async choosePreference(name: string): Promise<void> {
    await this.openUserMenu();
    await this.page.getByRole('menuitemradio', { name, exact: true }).click();
    await this.page.keyboard.press('Escape');
  }

  async signOut(): Promise<void> {
    await this.openUserMenu();
    await this.page.getByRole('menuitem', { name: 'Sign out' }).click();
  }

  /** The question before a sign-out that would delete unsent changes. */
  signOutDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Sign out?' });
  }
}
