import type { Locator, Page } from 'playwright-core';
import { appPaths } from '@plant/shared-schema';
import type { AppTab } from '../app-tab';

/**
 * Page models of the developer area (issue 18): /app/users/{id}/accesstokens and the consent
 * screen. English texts, roles and labels are the contract, as a screen reader meets them.
 */

/** A required field's label ends with Mantine's asterisk. */
const label = (text: string) =>
  new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

export class AccessTokensPage {
  readonly page: Page;

  constructor(readonly tab: AppTab) {
    this.page = tab.page;
  }

  /** Opens the page of `userId` and waits for it to be read (or to say why not). */
  async open(userId: string): Promise<void> {
    await this.tab.goto(appPaths.accessTokens(userId));
    await this.read();
  }

  /** Waits for the page the tab shows to be read (or to say why not). */
  async read(): Promise<void> {
    await this.page.locator('[data-testid="access-tokens"]:not([data-state="loading"])').waitFor();
  }

  /** What the page shows: loaded, unreachable, failed, or other (another user's page). */
  state(): Promise<string | null> {
    return this.page.getByTestId('access-tokens').getAttribute('data-state');
  }

  section(name: string): Locator {
    return this.page.getByRole('region', { name });
  }

  get tokens(): Locator {
    return this.section('Personal access tokens');
  }

  get clients(): Locator {
    return this.section('OAuth clients');
  }

  get apps(): Locator {
    return this.section('Authorized Applications');
  }

  dialog(name: string): Locator {
    return this.page.getByRole('dialog', { name });
  }

  /** The rows of a section's table as their cells' texts. */
  async rows(section: Locator): Promise<string[][]> {
    return section
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) =>
          [...row.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim()),
        ),
      );
  }

  /**
   * Fills the "Create new token" dialog and sends it. `role`: the option's label; `expires`: a
   * date input's value (yyyy-mm-dd).
   */
  async createToken(options: {
    readonly name: string;
    readonly scopes?: readonly string[];
    readonly role?: string;
    readonly expires?: string;
  }): Promise<Locator> {
    await this.tokens.getByRole('button', { name: 'Create new token' }).click();
    const dialog = this.dialog('Create new token');
    await dialog.getByRole('textbox', { name: label('Name') }).fill(options.name);
    for (const scope of options.scopes ?? []) {
      await dialog.getByRole('checkbox', { name: new RegExp(`^${scope} `) }).check();
    }
    if (options.role !== undefined) {
      await dialog.getByRole('combobox', { name: 'Role' }).selectOption({ label: options.role });
    }
    if (options.expires !== undefined) {
      await dialog.getByLabel(label('Expires')).fill(options.expires);
    }
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    return dialog;
  }

  /** Clicks a row's action (its accessible name names the row), then the dialog's confirmation. */
  async confirm(action: string, confirmation: string): Promise<void> {
    await this.page.getByRole('button', { name: action, exact: true }).click();
    await this.page.getByRole('dialog').getByRole('button', { name: confirmation }).click();
  }

  /** The items of the dialog's "Whoops! Something went wrong!" alert. */
  async problems(dialog: Locator): Promise<string[]> {
    const alert = dialog.getByRole('alert').filter({ hasText: 'Whoops! Something went wrong!' });
    await alert.waitFor();
    return alert.getByRole('listitem').allTextContents();
  }
}

/** /app/oauth/authorize */
export class ConsentScreen {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('consent');
  }

  /** Waits until the screen asks (or says it cannot), and answers which. */
  async settled(): Promise<string | null> {
    await this.page
      .locator('[data-testid="consent"]:is([data-state="asking"], [data-state="refused"])')
      .waitFor();
    return this.root.getAttribute('data-state');
  }

  scopes(): Promise<string[]> {
    return this.root.getByRole('list').getByRole('listitem').allTextContents();
  }

  authorize(): Promise<void> {
    return this.root.getByRole('button', { name: 'Authorize' }).click();
  }

  cancel(): Promise<void> {
    return this.root.getByRole('button', { name: 'Cancel' }).click();
  }
}
