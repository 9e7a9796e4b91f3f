import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for agent candidates (Claude Code / Codex sessions) in the list and their panel. */
export class CandidatesPage {
  constructor(private readonly page: Page) {}

  /** A candidate row by tool and the tool's own session id. */
  row(source: 'claude' | 'codex', externalId: string): Locator {
    return this.page.locator(`[data-testid="session-item"][data-session-id="${source}:${externalId}"]`);
  }

  scanStatus(): Locator {
    return this.page.getByTestId('scan-status');
  }

  panel(): Locator {
    return this.page.getByTestId('candidate-panel');
  }

  search(): Locator {
    return this.page.getByTestId('session-search');
  }

  async select(source: 'claude' | 'codex', externalId: string): Promise<void> {
    await this.row(source, externalId).click();
    await expect(this.panel()).toBeVisible();
  }

  async continueInTerminal(): Promise<Locator> {
    await this.page.getByTestId('candidate-terminal').click();
    const shown = this.page.getByTestId('terminal-command');
    await expect(shown).toBeVisible();
    return shown;
  }

  async openInBaton(): Promise<void> {
    await this.page.getByTestId('candidate-open').click();
    await expect(this.page.getByTestId('session-title')).toBeVisible();
  }
}
