import type { Locator, Page } from 'playwright-core';

/**
 * The page model of an asset's process diagram (/app/devices/{id}/uml/{diagramid}, issue 37
 * item 4): the drawing's bound elements by their id in the picture, and the editor's upload.
 */
export class DiagramPageModel {
  constructor(readonly page: Page) {}

  get drawing(): Locator {
    return this.page.getByTestId('diagram-drawing');
  }

  /** A bound element of the drawing (view mode), by its id in the picture. */
  bound(element: string): Locator {
    return this.drawing.locator(`[data-element="${element}"]`);
  }

  /** What a bound text shows. */
  async text(element: string): Promise<string> {
    return (await this.bound(element).textContent()) ?? '';
  }

  /** The fill the browser draws an element with (`rgb(…)`), after the page's overrides. */
  fill(element: string): Promise<string> {
    return this.bound(element).evaluate((el) => getComputedStyle(el).fill);
  }

  /** Opens the editor (its chunk loads on the first opening). */
  async edit(): Promise<void> {
    await this.page.getByTestId('diagram-edit').click();
    await this.page.getByTestId('diagram-editor').waitFor();
  }

  /** Uploads an SVG file through the editor's file input. */
  async upload(name: string, markup: string): Promise<void> {
    await this.page.getByTestId('diagram-upload-input').setInputFiles({
      name,
      mimeType: 'image/svg+xml',
      buffer: Buffer.from(markup, 'utf8'),
    });
  }

  /** What the page said it removed from the upload: "kind name" per line. */
  async removed(): Promise<string[]> {
    const items = this.page.getByTestId('svg-removed').locator('li');
    return items.evaluateAll((list) =>
      list.map((li) => `${li.getAttribute('data-kind')} ${li.getAttribute('data-name')}`),
    );
  }
}
