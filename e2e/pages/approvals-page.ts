import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the approvals badge, queue, request detail and grants. */
export class ApprovalsPage {
  constructor(private readonly page: Page) {}

  badge(): Locator {
    return this.page.getByTestId('approvals-badge');
  }

  items(): Locator {
    return this.page.getByTestId('approval-item');
  }

  queue(): Locator {
    return this.page.getByTestId('approval-queue');
  }

  detail(): Locator {
    return this.page.getByTestId('approval-detail');
  }

  /** The risk reasons the detail shows, as text, in order. */
  reasons(): Locator {
    return this.detail().getByTestId('risk-reason');
  }

  grants(): Locator {
    return this.page.getByTestId('grants').getByTestId('grant');
  }

  async open(): Promise<void> {
    if ((await this.page.getByTestId('approvals-panel').count()) === 0) await this.page.getByTestId('open-approvals').click();
    await expect(this.page.getByTestId('approvals-panel')).toBeVisible();
  }

  /** A key press where the focus is, as a person types it (no click first). */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  async approve(): Promise<void> {
    await this.detail().getByTestId('approve').click();
  }

  async allowForSession(): Promise<void> {
    await this.detail().getByTestId('allow-session').click();
  }

  async deny(reason?: string): Promise<void> {
    if (reason !== undefined) await this.detail().getByTestId('approval-reason').fill(reason);
    await this.detail().getByTestId('deny').click();
  }
}
