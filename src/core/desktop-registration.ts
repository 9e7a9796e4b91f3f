import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from './fs/index.js';
import { onPath } from './handoff/launcher.js';
import { BATON_MIME_TYPE, DESKTOP_FILE_NAME, readDesktopTemplate, renderDesktopEntry } from './desktop-entry.js';
import { BATON_URL_MARKER } from '../shared/baton-url.js';

/** How long xdg-mime / update-desktop-database may take before the fix reports them as failed. */
const XDG_TOOL_TIMEOUT_MS = 10_000;
/** The checkout (or npm package) root: two levels below it, from src/core and dist/cli alike. */
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function applicationsDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'applications');
}

export type DesktopExec = { ok: true; exec: string[]; kind: 'unpacked' | 'development' } | { ok: false; why: string };

/**
 * What the launcher runs for a link: $BATON_DESKTOP_EXEC (a build kept elsewhere), else the
 * unpacked build (`electron-builder --dir` → release/linux-unpacked/baton) when there is one,
 * else this checkout under its Electron runtime.
 */
export function resolveDesktopExec(root = PACKAGE_ROOT, exists: (path: string) => boolean = existsSync, env: NodeJS.ProcessEnv = process.env): DesktopExec {
  const chosen = env.BATON_DESKTOP_EXEC;
  if (chosen) return exists(chosen) ? { ok: true, kind: 'unpacked', exec: [chosen, BATON_URL_MARKER] } : { ok: false, why: `BATON_DESKTOP_EXEC=${chosen} does not exist` };
  const unpacked = join(root, 'release', 'linux-unpacked', 'baton');
  if (exists(unpacked)) return { ok: true, kind: 'unpacked', exec: [unpacked, BATON_URL_MARKER] };
  let electron: string | null = null;
  try {
    const dir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
    electron = exists(join(dir, 'dist', 'electron')) ? join(dir, 'dist', 'electron') : null;
  } catch {
    electron = null;
  }
  if (electron && exists(join(root, 'out', 'main', 'index.js'))) return { ok: true, kind: 'development', exec: [electron, root, BATON_URL_MARKER] };
  return {
    ok: false,
    why: `no desktop build found: neither ${unpacked} nor an Electron runtime with a built app (out/main) beside ${root}. Build one (npm run build, then npx electron-builder --linux --dir) or install the packaged app.`,
  };
}

export type ToolOutcome = { status: 'done' | 'absent' | 'failed'; detail: string };
export interface RegistrationResult {
  file: string;
  xdgMime: ToolOutcome;
  desktopDatabase: ToolOutcome;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) =>
    execFile(command, args, { env, timeout: XDG_TOOL_TIMEOUT_MS }, (error, stdout, stderr) => resolve({ ok: !error, output: `${stdout}${stderr}`.trim() || (error?.message ?? '') })),
  );
}

/**
 * `baton doctor --fix` on Linux: writes baton.desktop into $XDG_DATA_HOME/applications and makes
 * it the default for x-scheme-handler/baton with xdg-mime. Without xdg-mime the file is still
 * written (some desktops read MimeType= from it directly) and the result says so plainly.
 */
export async function registerBatonHandler(options: { exec: readonly string[]; env?: NodeJS.ProcessEnv; template?: string }): Promise<RegistrationResult> {
  const env = options.env ?? process.env;
  const template = options.template ?? (await readDesktopTemplate());
  const entry = renderDesktopEntry(template, {
    name: 'Baton',
    comment: 'Hand AI coding sessions between the terminal and the desktop',
    categories: 'Development;',
    exec: options.exec,
    mimeTypes: [BATON_MIME_TYPE],
  });
  if (!entry.ok) throw new Error(`the desktop entry could not be made: ${entry.error}`);
  const dir = applicationsDir(env);
  await mkdir(dir, { recursive: true });
  const file = join(dir, DESKTOP_FILE_NAME);
  await writeFileAtomic(file, entry.text, { mode: 0o644 });

  const desktopDatabase: ToolOutcome = onPath('update-desktop-database', env)
    ? await run('update-desktop-database', [dir], env).then((r) => (r.ok ? { status: 'done', detail: `indexed ${dir}` } : { status: 'failed', detail: r.output }))
    : { status: 'absent', detail: 'update-desktop-database is not installed (desktop-file-utils); the entry is still read directly' };
  const xdgMime: ToolOutcome = onPath('xdg-mime', env)
    ? await run('xdg-mime', ['default', DESKTOP_FILE_NAME, BATON_MIME_TYPE], env).then((r) =>
        r.ok ? { status: 'done', detail: `xdg-mime default ${DESKTOP_FILE_NAME} ${BATON_MIME_TYPE}` } : { status: 'failed', detail: r.output },
      )
    : { status: 'absent', detail: `xdg-mime is not installed (Debian: apt install xdg-utils), so ${BATON_MIME_TYPE} was not made the default; the entry alone works on desktops that read MimeType=` };
  return { file, xdgMime, desktopDatabase };
}
