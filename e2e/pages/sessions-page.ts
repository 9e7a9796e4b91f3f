import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the resume-candidate list and the open session. */
export class SessionsPage {
  constructor(private readonly page: Page) {}

  groups(): Locator {
    return this.page.getByTestId('session-group');
  }

  group(cwd: string): Locator {
    return this.page.locator(`[data-testid="session-group"][data-cwd="${cwd}"]`);
  }

  sessionsIn(cwd: string): Locator {
    return this.group(cwd).getByTestId('session-item');
  }

  session(id: string): Locator {
    return this.page.locator(`[data-testid="session-item"][data-session-id="${id}"]`);
  }

  messages(): Locator {
    return this.page.getByTestId('message');
  }

  async open(id: string): Promise<void> {
    await this.session(id).click();
    await expect(this.page.getByTestId('session-title')).toBeVisible();
  }
}
