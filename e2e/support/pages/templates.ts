import type { Locator, Page } from 'playwright-core';

/** The page model of the templates area: /app/templates/list and a template's details. */
export class TemplatePages {
  constructor(readonly page: Page) {}

  /** The template's name on its details page (not while it is being edited). */
  async templateName(): Promise<string> {
    return ((await this.page.getByTestId('template-name-value').textContent()) ?? '').trim();
  }

  /** The details page's groups, in the layout's order (`data-name` is the group's name). */
  get groups(): Locator {
    return this.page.getByTestId('template-group');
  }

  get streams(): Locator {
    return this.page.getByTestId('template-stream');
  }

  /** A row of the list by the template's name. */
  row(name: string): Locator {
    return this.page.locator(`[data-testid="template-row"][data-name="${name}"]`);
  }
}
