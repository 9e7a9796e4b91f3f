import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

/** Where the screenshots go, to be looked at by a person (test-results/ is not committed). */
export const SCREENS = join(REPO_ROOT, 'test-results', 'screens');
