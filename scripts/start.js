#!/usr/bin/env node
// `npm start`: build, then run the Electron app; where the Electron runtime cannot be had
// (no internet to fetch it, or no display), say so in one line and run the browser host instead.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

console.log('Building Baton…');
// The build's own output is shown only when it fails: a newcomer should see the one line that matters.
const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
if (build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
  process.exit(build.status ?? 1);
}

// The CLI is built now; say once how to have it in any shell (README "Handing a session off").
if (!onPath('baton')) {
  console.log(`To use \`baton\` from any shell: npm link   (or: npm pack && npm install -g ./baton-*.tgz)`);
}

const runtime = findElectronRuntime();
if (runtime.ok) {
  const child = spawn(runtime.path, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`Electron is not available here (${runtime.reason}); starting the browser host — open the URL below.`);
  const child = spawn(process.execPath, [join(root, 'bin', 'baton.js'), 'serve', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

function findElectronRuntime() {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { ok: false, reason: 'no display: DISPLAY and WAYLAND_DISPLAY are unset' };
  }
  const electronDir = dirname(require.resolve('electron/package.json'));
  if (!existsSync(join(electronDir, 'path.txt')) || !existsSync(join(electronDir, 'dist'))) {
    // Electron 42+ fetches its runtime on first use instead of at install time.
    console.log('Fetching the Electron runtime (first start only)…');
    const fetch = spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'pipe', timeout: 300_000, encoding: 'utf8' });
    if (fetch.status !== 0) {
      const why = `${fetch.stderr ?? ''}`.split('\n').find((line) => /error/i.test(line))?.trim() || 'download failed';
      return { ok: false, reason: `the runtime could not be downloaded: ${why.slice(0, 160)}` };
    }
  }
  try {
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? { ok: true, path } : { ok: false, reason: 'the electron package names no runtime' };
  } catch (error) {
    return { ok: false, reason: String(error.message).split('\n')[0] };
  }
}

function onPath(command) {
  const dirs = (process.env.PATH ?? '').split(process.platform === 'win32' ? ';' : ':').filter(Boolean);
  return dirs.some((dir) => existsSync(join(dir, command)) || existsSync(join(dir, `${command}.cmd`)));
}
