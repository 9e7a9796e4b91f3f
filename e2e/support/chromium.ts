import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../../playwright.config.js';

/** Why the web project cannot run here, or null when Debian's chromium is installed. */
export function chromiumMissingReason(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;
}
