// The receiving host for bench/handoff/cli-process.ts, in a process of its own as `baton serve` or
// the desktop runs it: the CLI's wall time then holds no work of the bench process (the host's
// indexing after an answer used to delay the moment the bench saw the CLI exit).
//
//   npx tsx bench/handoff/receiver-host.ts DATA_DIR [SRC_DIR]
//
// SRC_DIR: the `src` folder whose host to run (another build's tree for a before/after); default
// this tree's. Prints "ready" once the receiver listens; closes when stdin ends.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dataDir, srcDir = resolve(import.meta.dirname, '..', '..', 'src')] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: receiver-host.ts DATA_DIR [SRC_DIR]');
const { startHostServices } = (await import(pathToFileURL(resolve(srcDir, 'core', 'host', 'host-services.ts')).href)) as typeof import('../../src/core/host/host-services.js');
const services = await startHostServices({ dataDir, kind: 'browser', capabilities: ['conversation', 'approval-ui', 'diff-viewer', 'file-watcher'] });
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => void services.close().then(() => process.exit(0)));
