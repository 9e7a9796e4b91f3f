// Loads the bundled CLI through vm.Script with its V8 code cache (see scripts/build-cli.js).
// A cache from another Node/V8 build is rejected by V8 and the bundle simply compiles as usual.
// CommonJS (bin/package.json): an ES-module launcher makes Node start its ESM loader and
// node:fs's stream facade, ~5 ms of every command (bench/handoff/cli-process.ts).
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const ROOT = join(__dirname, '..');
const CLI_BUNDLE = join(ROOT, 'dist', 'cli', 'baton.cjs');
const CLI_CACHE = `${CLI_BUNDLE}.cache`;
/** `baton handoff` alone (src/cli/handoff-main.ts): a smaller bundle and cache than the whole CLI. */
const HANDOFF_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-handoff.cjs');
const HANDOFF_CACHE = `${HANDOFF_BUNDLE}.cache`;
/** `baton resume` with no id, the picker (src/cli/resume-main.ts): the resume command alone. */
const RESUME_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-resume.cjs');
const RESUME_CACHE = `${RESUME_BUNDLE}.cache`;
/** The picker's first screen from a running host (src/cli/picker-main.ts): its client, the list view and clack only. */
const PICKER_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-picker.cjs');
const PICKER_CACHE = `${PICKER_BUNDLE}.cache`;
/** `baton show` alone (src/cli/show-main.ts): `show --all --json` of a big session is measured against a bare parse. */
const SHOW_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-show.cjs');
const SHOW_CACHE = `${SHOW_BUNDLE}.cache`;
const FAST_LIST_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-list.cjs');
const FAST_LIST_CACHE = `${FAST_LIST_BUNDLE}.cache`;
/** An encrypted store's keychain read, started before the list or resume bundle compiles (src/cli/store-key-reads.ts). */
const KEY_READ_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-key-read.cjs');
const KEY_READ_CACHE = `${KEY_READ_BUNDLE}.cache`;
/** `baton handoff --messages FILE` through a running host (src/cli/handoff-fast.ts): no store, no zod, no commander. */
const FAST_HANDOFF_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-handoff-fast.cjs');
const FAST_HANDOFF_CACHE = `${FAST_HANDOFF_BUNDLE}.cache`;
/** `baton list` with no host to ask (src/cli/list-main.ts): the warm listing without the whole CLI's start-up. */
const LIST_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-list-local.cjs');
const LIST_CACHE = `${LIST_BUNDLE}.cache`;
/**
 * Side bundles: code the list and resume bundles hold out of their own source and load at its
 * first use (scripts/build-cli.js zodOnFirstUse, secretlintOnFirstUse), each compiled with its own
 * code cache. A warm listing or the picker's first screen reads neither (issue 15).
 */
const ZOD_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-zod.cjs');
const ZOD_CACHE = `${ZOD_BUNDLE}.cache`;
/** secretlint's recommended preset and core as Baton configures them (src/core/redact/secretlint-preset.ts). */
const SECRETLINT_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-secretlint.cjs');
const SECRETLINT_CACHE = `${SECRETLINT_BUNDLE}.cache`;
/** `baton serve` alone (src/cli/serve-main.ts): a new host reads the host's code and a cache warmed by a host start. */
const SERVE_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-serve.cjs');
const SERVE_CACHE = `${SERVE_BUNDLE}.cache`;

function compileCli() {
  return compileBundle(CLI_BUNDLE, CLI_CACHE);
}

// Issue 20: `baton handoff` streams a session of any size through short-lived objects. Its live
// heap stays at 15–25 MB; most of its RSS above that was V8's young generation doubling its
// semi-spaces (1 → 16 MiB) and the garbage promoted between collections. V8 reads this flag at
// each growth, so set before the bundle runs it keeps them at 1 MiB. It is set after the code
// cache is read: a cache is refused when V8's flags differ from the ones it was made under, and
// recompiling the bundle cost ~90 ms of every handoff (seventh sitting). Figures: bench/README.md,
// "Issue 20, sixth sitting"; test: src/cli/handoff-young-generation.test.ts.
function keepYoungGenerationSmall() {
  require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Where an import's young generation stops growing (V8's new space, both semi-spaces; it ends one
 * doubling past this, see below). An import parses every line of its transcript twice, and a
 * landing batch (1 MiB of message text, alive while redacted) outlives every scavenge of a 1 MiB
 * semi-space and is promoted: GC was a quarter of its CPU. Let grow, the import's CPU fell 19 % at
 * 100 MB and 9–22 % at 300 MB, peak RSS 142–164 MB at 100 MB and 146–151 MB at 300 MB
 * (bench/README.md, "Eighth sitting: import of a 300 MB transcript (issue 20)").
 */
const IMPORT_NEW_SPACE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Lets V8 double the young generation as usual until the new space reaches `maxBytes`, then holds
 * it there (the flag above). V8 has no runtime cap on the semi-spaces (--max-semi-space-size is
 * read when the heap is made), so the growth is stopped from a GC observer. Node delivers GC
 * entries on a later turn of the event loop, so one more doubling can land first: an import's new
 * space ended at 8 MiB in every run measured, where V8's default grows it to 32 MiB.
 */
function growYoungGenerationUpTo(maxBytes) {
  const v8 = require('node:v8');
  const { PerformanceObserver } = require('node:perf_hooks');
  const observer = new PerformanceObserver(() => {
    const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (newSpace && newSpace.space_size < maxBytes) return;
    keepYoungGenerationSmall();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** Whether argv is an import (`baton handoff --from TOOL`): a transcript of any size, read twice. */
function handoffImports(argv) {
  return argv.slice(3).some((a) => a === '--from' || a.startsWith('--from='));
}

/** What a handoff's young generation gets before its bundle runs: grown to a cap (imports), held, or V8's default. */
function youngGenerationFor(argv) {
  if (handoffImports(argv)) return () => growYoungGenerationUpTo(IMPORT_NEW_SPACE_MAX_BYTES);
  return handoffMayBeBig(argv) ? keepYoungGenerationSmall : undefined;
}

/**
 * A `--messages` file below this size is handed off with V8's default young generation: its whole
 * input is smaller than the semi-spaces the flag above holds back, and on a 150-message handoff the
 * flag cost 12–16 ms of CPU in more scavenges (bench/README.md, "Issue 20, seventh sitting").
 */
const SMALL_HANDOFF_INPUT_BYTES = 4 * 1024 * 1024;

/**
 * Whether a handoff's young generation must be held small: always, unless argv names one
 * `--messages` file (not stdin, no --from import, no --session re-offer, whose sizes are not known
 * here) under SMALL_HANDOFF_INPUT_BYTES. Anything unexpected keeps the bound.
 */
function handoffMayBeBig(argv, sizeOf = (file) => statSync(file).size) {
  const args = argv.slice(3);
  if (args.some((a) => a === '--from' || a.startsWith('--from=') || a === '--session' || a.startsWith('--session='))) return true;
  const named = args.flatMap((a, i) => (a === '--messages' ? [args[i + 1]] : a.startsWith('--messages=') ? [a.slice('--messages='.length)] : []));
  if (named.length !== 1 || !named[0] || named[0] === '-' || named[0].startsWith('-')) return true;
  try {
    return !(sizeOf(named[0]) < SMALL_HANDOFF_INPUT_BYTES);
  } catch {
    return true; // the handoff reports a missing or unreadable file itself
  }
}

/** The handoff bundle as the build warms it (V8's default flags: the cache it writes is for them). */
function compileHandoff() {
  return compileBundle(HANDOFF_BUNDLE, HANDOFF_CACHE);
}

function compileResume() {
  return compileBundle(RESUME_BUNDLE, RESUME_CACHE);
}

/** The hosted picker falls back to the resume bundle (its whole listing when the host went away), which needs the side bundles. */
function pickerIsBuilt() {
  return existsSync(PICKER_BUNDLE) && sideBundlesBuilt();
}

/** The hosted picker's bundle, compiled with its code cache (written by scripts/build-cli.js). */
function compilePicker() {
  return compileBundle(PICKER_BUNDLE, PICKER_CACHE);
}

function compileShow() {
  return compileBundle(SHOW_BUNDLE, SHOW_CACHE);
}

function compileList() {
  return compileBundle(LIST_BUNDLE, LIST_CACHE);
}

function compileServe() {
  return compileBundle(SERVE_BUNDLE, SERVE_CACHE);
}

/** What the launcher compiles a CommonJS bundle as: one function of the module's five names. */
const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname) {';
const BUNDLE_TAIL = '\n})';

/**
 * A bundle's source as the launcher compiles it. The picker's and the listings' bundles are
 * written already wrapped (scripts/build-cli.js storeWrapped), so their ~1 MB file is the string
 * V8 compiles: wrapping it here made a second copy, and both landed in the young generation's
 * large-object space, where each ~1 MB string starts a scavenge of its own (three before the
 * picker's first frame, none in `node -e ""`). Any other bundle (or an older build's) is wrapped
 * here, at the same columns: the code, its cache and its stack traces are the same either way.
 */
function bundleSource(file) {
  const source = readFileSync(file, 'utf8');
  return source.startsWith(BUNDLE_HEAD) && source.endsWith(BUNDLE_TAIL) ? source : `${BUNDLE_HEAD}${source}${BUNDLE_TAIL}`;
}

/** `source` (a bundle as esbuild wrote it) as bundleSource compiles it, for a bundle stored wrapped. */
function wrapBundle(source) {
  return source.startsWith(BUNDLE_HEAD) ? source : `${BUNDLE_HEAD}${source}${BUNDLE_TAIL}`;
}

/** Runs a CommonJS bundle with the V8 code cache beside it (when there is one); `beforeRun` runs once the cache is read. */
function compileBundle(file, cacheFile, beforeRun) {
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const script = new vm.Script(bundleSource(file), { filename: file, cachedData });
  if (beforeRun) beforeRun();
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { script, cli: module.exports };
}

/** Each side bundle this process has run, by file: a second load gets the same module. */
const sideBundles = new Map();

/** A side bundle compiled with its code cache and run once per process (the build writes the cache from the same `script`). */
function loadSideBundle(file, cacheFile) {
  let loaded = sideBundles.get(file);
  if (!loaded) sideBundles.set(file, (loaded = compileBundle(file, cacheFile)));
  return loaded;
}

/** zod (its CommonJS build, English only): `{ script, cli }`, where `cli.z` is zod's `z`. */
function loadZod() {
  return loadSideBundle(ZOD_BUNDLE, ZOD_CACHE);
}

/** secretlint-preset.ts's module: `{ script, cli }`, where `cli` has PRESET_RULES and lintWindow. */
function loadSecretlint() {
  return loadSideBundle(SECRETLINT_BUNDLE, SECRETLINT_CACHE);
}

/**
 * Whether the side bundles the list and resume bundles load on first use are there: without them
 * those bundles would fail at their first parse or redaction, so the whole CLI runs instead.
 */
function sideBundlesBuilt() {
  return existsSync(ZOD_BUNDLE) && existsSync(SECRETLINT_BUNDLE);
}

/** Whether this process has loaded the side bundle `file` (the build's warm-ups check that they ran it). */
function sideBundleLoaded(file) {
  return sideBundles.has(file);
}

/**
 * The bundle that runs argv's command: the handoff bundle for `baton handoff`, the resume bundle
 * for the picker (`baton resume` and nothing more), the show and list bundles for `show` and `list`
 * (a listing the fast-list bundle left: no host), the serve bundle for `serve`, when they were built
 * (for the list and resume bundles, with their side bundles), otherwise the whole CLI (a missing or
 * partial build never changes what runs, only how fast).
 */
function compileFor(argv) {
  if (argv[2] === 'handoff' && existsSync(HANDOFF_BUNDLE)) return compileBundle(HANDOFF_BUNDLE, HANDOFF_CACHE, youngGenerationFor(argv));
  if (argv[2] === 'resume' && argv.length === 3 && existsSync(RESUME_BUNDLE) && sideBundlesBuilt()) return compileResume();
  if (argv[2] === 'show' && existsSync(SHOW_BUNDLE)) return compileShow();
  if (argv[2] === 'list' && existsSync(LIST_BUNDLE) && sideBundlesBuilt()) return compileList();
  if (argv[2] === 'serve' && existsSync(SERVE_BUNDLE)) return compileServe();
  return compileCli();
}

function fastListIsBuilt() {
  return existsSync(FAST_LIST_BUNDLE);
}

/** The fast-list bundle, compiled with its code cache (written by scripts/build-cli.js): its start-up is most of a hosted listing. */
function compileFastList() {
  return compileBundle(FAST_LIST_BUNDLE, FAST_LIST_CACHE);
}

function loadFastList() {
  return compileFastList().cli;
}

function keyReadIsBuilt() {
  return existsSync(KEY_READ_BUNDLE);
}
/** The key-read bundle, compiled with its code cache (warmed by scripts/build-cli.js on a Secret Service of its own). */
function compileKeyRead() {
  return compileBundle(KEY_READ_BUNDLE, KEY_READ_CACHE);
}
function fastHandoffIsBuilt() {
  return existsSync(FAST_HANDOFF_BUNDLE);
}

/** The hosted handoff's bundle, compiled with its code cache (written by scripts/build-cli.js). */
function compileFastHandoff() {
  return compileBundle(FAST_HANDOFF_BUNDLE, FAST_HANDOFF_CACHE);
}

function cliIsBuilt() {
  return existsSync(CLI_BUNDLE);
}

exports.CLI_BUNDLE = CLI_BUNDLE;
exports.bundleSource = bundleSource;
exports.wrapBundle = wrapBundle;
exports.BUNDLE_HEAD = BUNDLE_HEAD;
exports.BUNDLE_TAIL = BUNDLE_TAIL;
exports.CLI_CACHE = CLI_CACHE;
exports.HANDOFF_BUNDLE = HANDOFF_BUNDLE;
exports.HANDOFF_CACHE = HANDOFF_CACHE;
exports.RESUME_BUNDLE = RESUME_BUNDLE;
exports.RESUME_CACHE = RESUME_CACHE;
exports.compileResume = compileResume;
exports.PICKER_BUNDLE = PICKER_BUNDLE;
exports.PICKER_CACHE = PICKER_CACHE;
exports.compilePicker = compilePicker;
exports.pickerIsBuilt = pickerIsBuilt;
exports.SHOW_BUNDLE = SHOW_BUNDLE;
exports.SHOW_CACHE = SHOW_CACHE;
exports.compileShow = compileShow;
exports.LIST_BUNDLE = LIST_BUNDLE;
exports.LIST_CACHE = LIST_CACHE;
exports.compileList = compileList;
exports.SERVE_BUNDLE = SERVE_BUNDLE;
exports.SERVE_CACHE = SERVE_CACHE;
exports.compileServe = compileServe;
exports.FAST_LIST_BUNDLE = FAST_LIST_BUNDLE;
exports.FAST_LIST_CACHE = FAST_LIST_CACHE;
exports.KEY_READ_BUNDLE = KEY_READ_BUNDLE;
exports.KEY_READ_CACHE = KEY_READ_CACHE;
exports.keyReadIsBuilt = keyReadIsBuilt;
exports.compileKeyRead = compileKeyRead;
exports.compileCli = compileCli;
exports.compileHandoff = compileHandoff;
exports.handoffMayBeBig = handoffMayBeBig;
exports.handoffImports = handoffImports;
exports.IMPORT_NEW_SPACE_MAX_BYTES = IMPORT_NEW_SPACE_MAX_BYTES;
exports.SMALL_HANDOFF_INPUT_BYTES = SMALL_HANDOFF_INPUT_BYTES;
exports.compileFor = compileFor;
exports.compileFastList = compileFastList;
exports.loadFastList = loadFastList;
exports.fastListIsBuilt = fastListIsBuilt;
exports.cliIsBuilt = cliIsBuilt;
exports.FAST_HANDOFF_BUNDLE = FAST_HANDOFF_BUNDLE;
exports.FAST_HANDOFF_CACHE = FAST_HANDOFF_CACHE;
exports.fastHandoffIsBuilt = fastHandoffIsBuilt;
exports.compileFastHandoff = compileFastHandoff;
exports.ZOD_BUNDLE = ZOD_BUNDLE;
exports.ZOD_CACHE = ZOD_CACHE;
exports.SECRETLINT_BUNDLE = SECRETLINT_BUNDLE;
exports.SECRETLINT_CACHE = SECRETLINT_CACHE;
exports.loadZod = loadZod;
exports.loadSecretlint = loadSecretlint;
exports.sideBundleLoaded = sideBundleLoaded;
