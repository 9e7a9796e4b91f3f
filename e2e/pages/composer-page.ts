import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the composer: the follow-up box, the run stream, its approvals, Stop and hand back. */
export class ComposerPage {
  constructor(private readonly page: Page) {}

  root(): Locator {
    return this.page.getByTestId('composer');
  }

  tools(): Locator {
    return this.page.getByTestId('run-tool');
  }

  state(): Locator {
    return this.page.getByTestId('run-state');
  }

  approval(): Locator {
    return this.page.getByTestId('run-approval');
  }

  async send(prompt: string): Promise<void> {
    await this.page.getByTestId('composer-input').fill(prompt);
    await this.page.getByTestId('composer-send').click();
  }

  /** Approve the pending call, with the second confirmation a high-risk call asks for. Resolves at the deciding click. */
  async approve(): Promise<void> {
    await expect(this.approval()).toBeVisible();
    await this.approval().getByTestId('run-approve').click();
    const confirm = this.approval().getByTestId('run-approve-confirm');
    if ((await confirm.count()) > 0) await confirm.click();
  }

  async deny(): Promise<void> {
    await expect(this.approval()).toBeVisible();
    await this.approval().getByTestId('run-deny').click();
  }

  async stop(): Promise<void> {
    await this.page.getByTestId('composer-stop').click();
  }

  async handBack(): Promise<Locator> {
    await this.page.getByTestId('composer-hand-back').click();
    const shown = this.page.getByTestId('composer-handed-back');
    await expect(shown).toBeVisible();
    return shown;
  }
}
