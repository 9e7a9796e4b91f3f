import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { nodeImportReader } from './reader.js';
import { WORKER_READY, type ScanTask, type ScanTaskReply, type ScanWorkerData } from './scan-worker-protocol.js';
import { summarizeForScan } from './summarize-jobs.js';

/**
 * A cold scan's worker (scan-pool.ts): reads and digests the session files it is sent, one task
 * at a time, and posts their states back, redacted. It parses JSON lines (the bulk of a cold
 * scan) and redacts on another core; the stats, the caches and the listing stay with the scan.
 *
 * Bundled on its own (scripts/build-cli.js, electron.vite.config.ts) as scan-worker.cjs next to
 * each bundle that scans.
 */
const port = parentPort;
if (port) {
  const nice = (workerData as Partial<ScanWorkerData> | null)?.nice;
  if (typeof nice === 'number' && nice > 0) {
    // Linux and macOS renice only this thread (pid 0 = the caller); where refused, the worker runs at normal priority.
    try {
      setPriority(0, Math.min(19, Math.floor(nice)));
    } catch {
      // Not allowed here: same work, same results, only not yielding to the page.
    }
  }
  port.on('message', (task: ScanTask) => {
    // summarizeForScan catches per file; were it to reject, the worker dies and the pool re-runs the task.
    void summarizeForScan(nodeImportReader, task.jobs).then(({ results, bytes }) => {
      const reply: ScanTaskReply = { id: task.id, results, bytes };
      port.postMessage(reply);
    });
  });
  port.postMessage(WORKER_READY);
}
