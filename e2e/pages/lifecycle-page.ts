import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for issue 21's actions: archive/unarchive, delete with its confirmation, the Archived section and Your data. */
export class LifecyclePage {
  constructor(private readonly page: Page) {}

  archive(): Locator {
    return this.page.getByTestId('archive-session');
  }

  unarchive(): Locator {
    return this.page.getByTestId('unarchive-session');
  }

  archivedItem(id: string): Locator {
    return this.page.locator(`[data-testid="archived-item"][data-id="${id}"]`);
  }

  async openArchived(): Promise<void> {
    const toggle = this.page.getByTestId('archived-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }

  deleteDialog(): Locator {
    return this.page.getByTestId('delete-dialog');
  }

  async openData(): Promise<Locator> {
    await this.page.getByTestId('open-data').click();
    const panel = this.page.getByTestId('data-panel');
    await expect(panel).toBeVisible();
    return panel;
  }
}
