import { accessSync, constants } from 'node:fs';
import { CHROMIUM_PATH } from '../../playwright.config.js';

/** Why the web project cannot run here, or null when the chromium it launches is installed and executable. */
export function chromiumMissingReason(path: string = CHROMIUM_PATH): string | null {
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return `no Chromium at ${path} (apt-get install chromium, or set BATON_CHROMIUM): the web end-to-end tests cannot run`;
  }
}
