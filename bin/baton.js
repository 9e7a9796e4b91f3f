#!/usr/bin/env node
// The `baton` command: runs the bundled CLI (npm run build:node writes dist/cli/baton.cjs).
// CommonJS (bin/package.json) so Node starts without its ES-module loader.
'use strict';
const { cliIsBuilt, compileFastHandoff, compileFor, compileKeyRead, compilePicker, compileResume, fastHandoffIsBuilt, fastListIsBuilt, keyReadIsBuilt, loadFastList, pickerIsBuilt } = require('./load-cli.js');
const { EXIT_WHEN_FLUSHED, exitWhenFlushed } = require('./exit-when-flushed.js');

async function run() {
  if (!cliIsBuilt()) {
    process.stderr.write('baton: the CLI is not built yet. Run: npm run build\n');
    process.exit(1);
  }
  // `baton list --json` asks a running host through a small bundle first (issue 15); it declines
  // (false) whenever the full CLI is needed. No socket file (bin/host-socket.js): the bundle is not
  // even compiled (~1.5 ms of a listing without a host).
  if (process.argv[2] === 'list') {
    const { hostMayRun } = require('./host-socket.js');
    const askHost = fastListIsBuilt() && !process.argv.includes('--no-host') && hostMayRun();
    if (askHost && (await loadFastList().tryFastList(process.argv))) process.exit(0);
    // No host answered: an encrypted store's keychain read starts now and overlaps the list
    // bundle's compile (issue 17); the store's open takes it.
    await startStoreKeyReads();
  }
  // `baton resume` alone, the picker: its first screen from a running host through a small bundle
  // (issue 15); it declines (false) without a terminal or a host, and the resume bundle runs. No
  // socket file, no host: the bundle is not even compiled (bin/host-socket.js).
  if (process.argv[2] === 'resume') {
    const { hostMayRun } = require('./host-socket.js');
    if (process.argv.length === 3 && hostMayRun() && pickerIsBuilt()) {
      if (await compilePicker().cli.tryHostedPicker(process.argv, () => compileResume().cli)) return;
    }
    // No host to ask: the resume bundle opens the store itself. An encrypted store's keychain read
    // starts now and overlaps that bundle's compile and the index's read, as a listing's does
    // (issue 17 with issue 15's picker target). With a host's socket there, the bundle asks the
    // host and the read would be wasted.
    if (!hostMayRun()) await startStoreKeyReads();
  }
  let argv = process.argv;
  // `baton handoff --messages FILE` asks a running host to land and take the session through a
  // small bundle first (issue 20, a hosted handoff); it answers the argv for the full CLI when it
  // declines (with --land-as ID once its request may have reached the host: never landed twice).
  if (argv[2] === 'handoff' && fastHandoffIsBuilt()) {
    const fast = await compileFastHandoff().cli.tryFastHandoff(argv);
    if (fast.exitCode !== undefined) {
      process.exitCode = fast.exitCode;
      exitWhenFlushed();
      return;
    }
    argv = fast.fallback;
  }
  await compileFor(argv).cli.main(argv);
  if (EXIT_WHEN_FLUSHED.has(argv[2])) exitWhenFlushed();
}

/**
 * An encrypted store's keychain read, from its own small bundle (src/cli/store-key-reads.ts):
 * resolves once its calls are on the bus. Nothing is compiled for a store with no encryption.json.
 */
function startStoreKeyReads() {
  const { storeMayBeEncrypted } = require('./host-socket.js');
  if (!storeMayBeEncrypted() || !keyReadIsBuilt()) return Promise.resolve();
  try {
    return compileKeyRead().cli.startStoreKeyReads();
  } catch {
    return Promise.resolve(); // only a head start: the store reads its key at open as before
  }
}

run().catch((error) => {
  process.stderr.write(`baton: ${error && error.stack ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
