import type { Locator, Page } from 'playwright-core';

/**
 * Page models of the user area (/user/*) and /scan. English texts and the fields' labels are the
 * contract; a field's message is read the way a screen reader reaches it: through the input's
 * aria-describedby.
 */

/** What an input says about itself: its message (aria-describedby), invalid flag and focus. */
export class Field {
  constructor(readonly input: Locator) {}

  fill(value: string): Promise<void> {
    return this.input.fill(value);
  }

  /** The texts of the elements the input is described by (its message, its hint). */
  description(): Promise<string> {
    return this.input.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter((id) => id !== '')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim(),
    );
  }

  async invalid(): Promise<boolean> {
    return (await this.input.getAttribute('aria-invalid')) === 'true';
  }

  focused(): Promise<boolean> {
    return this.input.evaluate((el) => el === document.activeElement);
  }
}

/**
 * An input by its label (password inputs have no textbox role, hence the label), whole: 'Password'
 * is not 'New password', nor the visibility toggle's 'Toggle password visibility'. A required
 * field's label ends with Mantine's asterisk.
 */
function field(page: Page, label: string): Field {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new Field(page.getByLabel(new RegExp(`^${escaped}( \\*)?$`)));
}

/** The first alert of the page that holds `text` (the form's message, not a field's). */
function alertWith(page: Page, text: string | RegExp): Locator {
  return page.getByRole('alert').filter({ hasText: text });
}

/** /user/login */
export class SignInScreen {
  readonly email: Field;
  readonly password: Field;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.email = field(page, 'Email');
    this.password = field(page, 'Password');
    this.submit = page.getByRole('button', { name: 'Sign in' });
  }

  /** The message of a failed sign-in ('Wrong credentials!' and the like). */
  readonly error = () => this.page.getByTestId('sign-in-error');

  async send(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  alert(text: string | RegExp): Locator {
    return alertWith(this.page, text);
  }
}

/** /user/register */
export class RegisterScreen {
  readonly firstname: Field;
  readonly lastname: Field;
  readonly email: Field;
  readonly password: Field;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.firstname = field(page, 'First name');
    this.lastname = field(page, 'Last name');
    this.email = field(page, 'Email');
    this.password = field(page, 'Password');
    this.submit = page.getByRole('button', { name: 'Create account' });
  }

  async send(values: {
    firstname: string;
    lastname: string;
    email: string;
    password: string;
  }): Promise<void> {
    await this.firstname.fill(values.firstname);
    await this.lastname.fill(values.lastname);
    await this.email.fill(values.email);
    await this.password.fill(values.password);
    await this.submit.click();
  }
}

/** /user/forgot-password */
export class ForgotPasswordScreen {
  readonly email: Field;
  readonly submit: Locator;
  /** The confirmation's heading, the same for every address. */
  readonly confirmation: Locator;

  constructor(readonly page: Page) {
    this.email = field(page, 'Email');
    this.submit = page.getByRole('button', { name: 'Send the link' });
    this.confirmation = page.getByRole('heading', { name: 'Check your mail' });
  }

  async send(email: string): Promise<void> {
    await this.email.fill(email);
    await this.submit.click();
  }
}

/** /user/reset-password and /user/set-password */
export class ResetPasswordScreen {
  readonly password: Field;
  readonly repeat: Field;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.password = field(page, 'New password');
    this.repeat = field(page, 'Repeat the new password');
    this.submit = page.getByRole('button', { name: /^(Change|Set) the password$/ });
  }

  async send(password: string, repeat = password): Promise<void> {
    await this.password.fill(password);
    await this.repeat.fill(repeat);
    await this.submit.click();
  }

  alert(text: string | RegExp): Locator {
    return alertWith(this.page, text);
  }
}

/** /scan?id= when it cannot go on: its message. */
export class ScanScreen {
  constructor(readonly page: Page) {}

  readonly error = () => this.page.getByTestId('scan-error');
}

/**
 * Records every 'Switching to account …' text the page shows, from the first script of every
 * document on: an account switch can be over between two polls of a test.
 */
export async function recordSwitchOverlay(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { switchOverlays: string[] }).switchOverlays = seen;
    const look = () => {
      const match = /Switching to account [^\n]*\.\.\./.exec(document.body?.innerText ?? '');
      if (match !== null && !seen.includes(match[0])) seen.push(match[0]);
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { switchOverlays?: string[] }).switchOverlays ?? []);
}
