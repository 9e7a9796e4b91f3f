import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the unlock screen of a passphrase store and the Lock button (issue 17). */
export class UnlockPage {
  constructor(private readonly page: Page) {}

  screen(): Locator {
    return this.page.getByTestId('unlock-screen');
  }

  field(): Locator {
    return this.page.getByTestId('unlock-passphrase');
  }

  submit(): Locator {
    return this.page.getByTestId('unlock-submit');
  }

  error(): Locator {
    return this.page.getByTestId('unlock-error');
  }

  lockButton(): Locator {
    return this.page.getByTestId('lock-store');
  }

  /** Types the passphrase and sends it once the host hears attempts again (after a wrong one it waits). */
  async unlockWith(passphrase: string): Promise<void> {
    await expect(this.submit()).toBeEnabled({ timeout: 15_000 });
    await this.field().fill(passphrase);
    await this.submit().click();
  }
}
