import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the open session's tabs: Changes (workspace), History, and Continue in terminal. */
export class SessionViewPage {
  constructor(private readonly page: Page) {}

  tab(name: 'conversation' | 'changes' | 'history'): Locator {
    return this.page.getByTestId(`tab-${name}`);
  }

  async openTab(name: 'conversation' | 'changes' | 'history'): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute('aria-selected', 'true');
  }

  workspaceStatus(): Locator {
    return this.page.getByTestId('workspace-status');
  }

  recheck(): Locator {
    return this.page.getByTestId('workspace-recheck');
  }

  driftedFiles(): Locator {
    return this.page.getByTestId('drifted-file');
  }

  files(): Locator {
    return this.page.getByTestId('diff-file');
  }

  file(path: string): Locator {
    return this.page.locator(`[data-testid="diff-file"][data-path="${path}"]`);
  }

  openFilePath(): Locator {
    return this.page.getByTestId('file-diff-path');
  }

  /** Monaco's own diff editor element, once the lazy chunk has loaded and rendered. */
  monacoDiff(): Locator {
    return this.page.locator('[data-testid="diff-editor"][data-state="ready"] .monaco-diff-editor');
  }

  continueInTerminal(): Locator {
    return this.page.getByTestId('continue-in-terminal');
  }

  terminalPopover(): Locator {
    return this.page.getByTestId('terminal-popover');
  }

  terminalShellLine(): Locator {
    return this.page.getByTestId('terminal-shell-line');
  }
}
