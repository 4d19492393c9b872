import type { Locator, Page } from 'playwright-core';

/**
 * The page model of /app/devices/list. Rows are virtualised: only the rendered ones are in the
 * DOM, so "names" are those of the rendered rows, in order.
 */
export class DevicesListPage {
  constructor(readonly page: Page) {}

  /** The count line ("12 assets", "3 of 12 assets"), or '' while it loads. */
  async count(): Promise<string> {
    return ((await this.page.getByTestId('devices-count').textContent()) ?? '').trim();
  }

  get search(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search assets' });
  }

  /** Types into the search box (replacing what was there). */
  async searchFor(text: string): Promise<void> {
    await this.search.fill(text);
  }

  get table(): Locator {
    return this.page.getByRole('table', { name: 'Assets' });
  }

  /** Rendered rows with their data (loading placeholders not included). */
  get rows(): Locator {
    return this.page.getByTestId('device-row');
  }

  /** Every rendered body row, placeholders included: what the DOM holds. */
  renderedRowCount(): Promise<number> {
    return this.page.locator('[data-testid="devices-table"] tbody tr').count();
  }

  /** The names of the rendered rows, top to bottom. */
  async names(): Promise<string[]> {
    const rows = this.page.locator('[data-testid="device-row"]');
    return rows.evaluateAll((els) =>
      els
        .map((el) => ({
          index: Number(el.getAttribute('data-index')),
          name: el.querySelector('a')?.textContent ?? '',
        }))
        .sort((a, b) => a.index - b.index)
        .map((r) => r.name),
    );
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  /** Opens an asset by its name's link. */
  async open(name: string): Promise<void> {
    await this.row(name).getByRole('link', { name, exact: true }).click();
  }

  /** The empty state's title, when one shows. */
  emptyState(): Locator {
    return this.page.getByTestId('empty-state');
  }

  /** Scrolls the table's scroll area to its end. */
  async scrollToEnd(): Promise<void> {
    await this.page
      .getByTestId('devices-scroller')
      .evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  }

  /** The index (0-based) of the row that has the keyboard focus, or null. */
  focusedRowIndex(): Promise<number | null> {
    return this.page.evaluate(() => {
      const el = document.activeElement;
      const index = el?.getAttribute('data-index');
      return el?.tagName === 'TR' && index !== null && index !== undefined ? Number(index) : null;
    });
  }

  // ---- the views (issue 16): panel, table, map ------------------------------------------------

  /** The view switch's choice: 'Panel', 'Table' or 'Map'. */
  view(name: 'Panel' | 'Table' | 'Map'): Locator {
    return this.page.getByRole('radiogroup', { name: 'View' }).getByRole('radio', { name });
  }

  /** Chooses a view by its label (the radio itself is visually hidden behind it). */
  async chooseView(name: 'Panel' | 'Table' | 'Map'): Promise<void> {
    await this.page.getByTestId('devices-view').getByText(name, { exact: true }).click();
  }

  /** The panel's rendered cards (placeholders not included). */
  get cards(): Locator {
    return this.page.getByTestId('device-card');
  }

  /** The names on the rendered cards, in list order. */
  cardNames(): Promise<string[]> {
    return this.cards.evaluateAll((els) =>
      els
        .map((el) => ({
          index: Number(el.getAttribute('data-index')),
          name: el.querySelector('a')?.textContent ?? '',
        }))
        .sort((a, b) => a.index - b.index)
        .map((c) => c.name),
    );
  }

  /** Scrolls the panel's scroll area to its end. */
  async scrollPanelToEnd(): Promise<void> {
    await this.page
      .getByTestId('devices-panel-scroller')
      .evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  }

  /** Narrows every view to a tag through the tag filter (its option reads "tag (count)"). */
  async chooseTag(option: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Tag' }).selectOption({ label: option });
  }

  /** The table's column headers, left to right. */
  headers(): Promise<string[]> {
    return this.table
      .getByRole('columnheader')
      .evaluateAll((els) => els.map((el) => (el.textContent ?? '').trim()));
  }

  /** A column header's sort button. */
  sortButton(column: string): Locator {
    return this.table.getByRole('columnheader').getByRole('button', { name: column });
  }

  /** Shows or hides an optional column through the Columns choice. */
  async toggleColumn(label: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Columns' }).click();
    await this.page.getByRole('checkbox', { name: label }).click();
    await this.page.keyboard.press('Escape');
  }

  /** The map's container (data-ready once drawn, data-zoom the zoom, data-markers their number). */
  get map(): Locator {
    return this.page.getByTestId('devices-map');
  }

  /** The map's line that says how many assets are on it and how many have no position. */
  async mapSummary(): Promise<string> {
    return ((await this.page.getByTestId('devices-map-summary').textContent()) ?? '').trim();
  }

  /** An asset's marker on the map, by its name. */
  mapAsset(name: string): Locator {
    return this.map.getByRole('link', { name, exact: true });
  }

  /** The cluster markers on the map (each says how many assets it holds in data-count). */
  get mapClusters(): Locator {
    return this.map.getByTestId('map-cluster');
  }

  /** The assets the map's markers stand for: the clusters' counts plus the single assets. */
  async mapAssetsShown(): Promise<number> {
    return this.map.evaluate((el) => {
      let n = 0;
      for (const m of el.querySelectorAll('[data-testid="map-cluster"]')) {
        n += Number(m.getAttribute('data-count'));
      }
      return n + el.querySelectorAll('[data-testid="map-asset"]').length;
    });
  }
}

/** The page model of /app/devices/{id}/details. */
export class DeviceDetailsPage {
  constructor(readonly page: Page) {}

  get title(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  /** The asset's name as shown (not while it is being edited). */
  async name(): Promise<string> {
    return ((await this.page.getByTestId('asset-name-value').textContent()) ?? '').trim();
  }

  async description(): Promise<string> {
    return ((await this.page.getByTestId('asset-description-value').textContent()) ?? '').trim();
  }

  get nameInput(): Locator {
    return this.page.getByRole('textbox', { name: 'Name' });
  }

  get descriptionInput(): Locator {
    return this.page.getByRole('textbox', { name: 'Description' });
  }

  /** Opens the name's editor with its edit button. */
  async editName(): Promise<void> {
    await this.page.getByRole('button', { name: 'Edit Name' }).click();
  }

  async editDescription(): Promise<void> {
    await this.page.getByRole('button', { name: 'Edit Description' }).click();
  }

  /** Renames through the editor: edit, type, Enter. */
  async rename(name: string): Promise<void> {
    await this.editName();
    await this.nameInput.fill(name);
    await this.nameInput.press('Enter');
  }

  /** The "not synced yet" mark of a model with local changes. */
  get pendingMark(): Locator {
    return this.page.getByTestId('asset-pending');
  }

  get notFound(): Locator {
    return this.page.getByTestId('asset-not-found');
  }

  /**
   * The page of the asset `id` only: after a navigation the last page (a template's, with the
   * same sections) stays until the router renders this one.
   */
  of(id: string): Locator {
    return this.page.locator(`[data-testid="asset-details"][data-id="${id}"]`);
  }

  /** The stream groups' names in the order shown. */
  groupNames(): Promise<string[]> {
    return this.page
      .getByTestId('stream-group')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-name') ?? ''));
  }

  group(name: string): Locator {
    return this.page.locator(`[data-testid="stream-group"][data-name="${name}"]`);
  }

  /** A collapsible group's open/close button (none for a group that is always open). */
  groupToggle(name: string): Locator {
    return this.group(name).getByTestId('stream-group-toggle');
  }

  /** The stream rows of a group: [name, unit, type] each, as shown (values left out). */
  streams(groupName: string): Promise<string[][]> {
    return this.group(groupName)
      .getByTestId('stream-row')
      .evaluateAll((rows) =>
        rows.map((r) =>
          Array.from(r.querySelectorAll('td'), (td) => (td.textContent ?? '').trim()).slice(0, 3),
        ),
      );
  }
}

/** The sync indicator in the app's header (data-state, data-pending). */
export function syncIndicator(page: Page): Locator {
  return page.getByTestId('sync-indicator');
}

/** Whether an <img> has loaded its picture (a photo, a 3D model's thumbnail). */
export function imageLoaded(img: Locator): Promise<boolean> {
  return img.evaluate(
    (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
  );
}
