import { spawn, type ChildProcess } from 'node:child_process';
import { BATON_BIN, REPO_ROOT } from './cli.js';

export interface RunningHost {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Everything the host printed so far (stdout and stderr), and how it exited if it did; absent for the desktop app. */
  output?: () => string;
}

/**
 * Starts the real `baton serve` on a free port and waits for its JSON line with the URL.
 * `env` adds to (or overrides) the inherited environment, e.g. a fake HOME holding ~/.claude.
 */
export function startBrowserHost(home: string, env: NodeJS.ProcessEnv = {}): Promise<RunningHost> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [BATON_BIN, 'serve', '--json', '--port', '0'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env, BATON_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const fail = (why: string) => reject(new Error(`baton serve did not start: ${why}\n${stderr}`));
    const timer = setTimeout(() => fail('no URL within 20 s'), 20_000);
    child.stderr?.on('data', (d) => (stderr += d));
    let exit = '';
    child.on('exit', (code, signal) => {
      exit = `\nbaton serve exited (${signal ?? `code ${code}`})\n`;
      fail(`exited with ${code}`);
    });
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      const info = JSON.parse(line) as { url: string; port: number };
      resolve({
        url: info.url,
        port: info.port,
        output: () => stdout + stderr + exit,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
