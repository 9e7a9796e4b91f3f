import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the approvals badge, queue and request detail. */
export class ApprovalsPage {
  constructor(private readonly page: Page) {}

  badge(): Locator {
    return this.page.getByTestId('approvals-badge');
  }

  items(): Locator {
    return this.page.getByTestId('approval-item');
  }

  detail(): Locator {
    return this.page.getByTestId('approval-detail');
  }

  async open(): Promise<void> {
    if ((await this.page.getByTestId('approvals-panel').count()) === 0) await this.page.getByTestId('open-approvals').click();
    await expect(this.page.getByTestId('approvals-panel')).toBeVisible();
  }

  async approve(): Promise<void> {
    await this.detail().getByTestId('approve').click();
  }

  async deny(reason?: string): Promise<void> {
    if (reason !== undefined) await this.detail().getByTestId('approval-reason').fill(reason);
    await this.detail().getByTestId('deny').click();
  }
}
