import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./delete-child.ts', import.meta.url));

/** Runs delete-child.ts as a real process; bundled once with esbuild (as the crash suite does) so each start costs ~0.1 s. */
export async function deleteChildRunner(workDir: string): Promise<(root: string, what: string, killAt: number) => Promise<{ ops?: number; killed: boolean; stderr: string }>> {
  const { build } = await import('esbuild');
  const outfile = join(workDir, 'delete-child.mjs');
  await build({ entryPoints: [CHILD], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent' });
  return (root, what, killAt) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [outfile, root, what, String(killAt)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', reject);
      child.on('close', (_code, signal) => {
        const done = out.split('\n').find((l) => l.startsWith('{'));
        resolve({ ops: done ? (JSON.parse(done) as { ops: number }).ops : undefined, killed: signal === 'SIGKILL', stderr: err });
      });
    });
}
