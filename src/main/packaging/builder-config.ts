// Packaging-time only (the desktop entry generator, tests): never imported by the app bundle.
import { createRequire } from 'node:module';
import type { Configuration } from 'electron-builder';

const require = createRequire(import.meta.url);

/** electron-builder's own loader and schema check, so what is read here is what `npm run dist` reads. */
interface BuilderLoad {
  findAndReadConfig(request: { packageKey: string; configFilename: string; projectDir: string; packageMetadata: null }): Promise<{ result: Configuration; configFile: string } | null>;
}
interface BuilderValidate {
  validateConfiguration(config: Configuration, debugLogger: { add(key: string, value: unknown): void }): Promise<void>;
}

export type BuilderConfigResult = { ok: true; config: Configuration; file: string } | { ok: false; file: string; error: string };

/** Reads and schema-checks electron-builder.{yml,…} in `projectDir`; a precise error names the file. */
export async function readBuilderConfig(projectDir: string): Promise<BuilderConfigResult> {
  const load = require('app-builder-lib/out/util/config/load.js') as BuilderLoad;
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as BuilderValidate;
  const file = `${projectDir}/electron-builder.yml`;
  try {
    const found = await load.findAndReadConfig({ packageKey: 'build', configFilename: 'electron-builder', projectDir, packageMetadata: null });
    if (!found) return { ok: false, file, error: 'no electron-builder configuration file' };
    await validateConfiguration(found.result, { add: () => undefined });
    return { ok: true, config: found.result, file: found.configFile };
  } catch (error) {
    return { ok: false, file, error: (error as Error).message };
  }
}
