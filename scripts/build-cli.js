#!/usr/bin/env node
// Bundles the `baton` CLI (and `baton serve`) into one CommonJS file, dist/cli/baton.cjs, plus a V8
// code cache of it (dist/cli/baton.cjs.cache) that bin/baton.js hands to vm.Script. One file and a
// warm cache keep a handoff's start-up short (bench/handoff/cli-process.ts); Node 20 has no
// module.enableCompileCache. Type-checking is `npm run typecheck`; this step only transpiles.
import { build } from 'esbuild';
import { buildScanWorker, SCAN_WORKER_FILE } from './build-scan-worker.js';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as nodeCrypto from 'node:crypto';
import * as nodeFsPromises from 'node:fs/promises';
import * as nodeV8 from 'node:v8';
import { Script } from 'node:vm';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { basename, dirname, join } from 'node:path';
import { bundleSource, wrapBundle, FAST_LIST_BUNDLE, KEY_READ_BUNDLE, KEY_READ_CACHE, compileKeyRead, compileCli, compileFastHandoff, compileFastList, compileHandoff, FAST_HANDOFF_BUNDLE, FAST_HANDOFF_CACHE, compilePicker, compileShow, CLI_BUNDLE, PICKER_BUNDLE, PICKER_CACHE, CLI_CACHE, FAST_LIST_CACHE, HANDOFF_BUNDLE, HANDOFF_CACHE, LIST_BUNDLE, LIST_CACHE, RESUME_BUNDLE, RESUME_CACHE, SHOW_BUNDLE, SHOW_CACHE, SECRETLINT_BUNDLE, SECRETLINT_CACHE, ZOD_BUNDLE, ZOD_CACHE, SERVE_BUNDLE, SERVE_CACHE } from '../bin/load-cli.js';

// Every warm-up, probe and scratch host below runs with a scratch HOME and data directory, and its
// env is built from this process's. CLAUDE_CONFIG_DIR and CODEX_HOME would point the importers at
// the builder's own sessions whatever HOME says (src/core/importers/locate.ts): the caches would be
// warmed on them, and a large corpus could run a warm-up past its time limit.
for (const name of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME']) delete process.env[name];
// The person's session bus too: a warm-up's scratch store (a scratch host's) opened where a Secret
// Service answers is encrypted at rest by default, so every build left data keys of deleted scratch
// stores in the person's own keychain. Pointed at no bus rather than unset, as vitest.config.ts
// does for the tests: unset, a libdbus built for the user session looks at $XDG_RUNTIME_DIR/bus,
// the person's bus on a systemd desktop (the binding's own libdbus here tries X11 autolaunch
// instead, and fails). The one warm-up that needs a keyed store has a Secret Service of its own
// (keyedScratchStore).
const NO_SESSION_BUS = 'unix:path=/nonexistent/baton-build-has-no-session-bus';
process.env.DBUS_SESSION_BUS_ADDRESS = NO_SESSION_BUS;

/**
 * zod's `locales` namespace (`z.locales`, `z.core.locales`) re-exports its 50 error-message
 * languages; nothing in Baton selects one (zod configures English itself), but the namespace kept
 * all of them in every CLI bundle: 263 KB of the handoff's 1.4 MB, 44 % of the show bundle, read and
 * initialised at every start (issue 20, "CLI start-up"). In the bundles the namespace holds English
 * alone, in zod's ES build (the whole CLI's bundles) and its CommonJS build (zodOnFirstUse's). Test:
 * scripts/build-cli-zod.test.js (no source names another locale; the bundles hold none).
 */
function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.c?js$/ }, (args) =>
        /[\\/]node_modules[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), '..', 'locales', args.path.endsWith('.cjs') ? 'index.cjs' : 'index.js'), namespace: 'zod-english-only' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
        contents: args.path.endsWith('.cjs') ? `exports.en = require(${JSON.stringify(join(dirname(args.path), 'en.cjs'))});\n` : `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};\n`,
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
    },
  };
}

/**
 * commander requires node:child_process at its top for one thing: spawning an executable
 * subcommand (a `baton-<name>` file), which Baton never declares. Loading it (node:dgram and, with
 * stdout a file, node:net under it) was ~3 ms CPU of every command that starts no process, such as a warm
 * `baton list` (issue 15, bench/README.md "Ninth sitting: the warm listing's CPU"). In the bundles
 * commander gets a `spawn` that loads the module when called. Test: src/cli/list-local-start.test.ts.
 */
function commanderChildProcessOnUse() {
  return {
    name: 'commander-child-process-on-use',
    setup(build) {
      build.onResolve({ filter: /^node:child_process$/ }, (args) =>
        /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'commander-child-process-on-use' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'commander-child-process-on-use' }, () => ({
        contents: "exports.spawn = (...args) => require('node:child_process').spawn(...args);\n",
        loader: 'js',
      }));
    },
  };
}

/**
 * The launcher's loader as a bundle in dist/cli requires it (the bundle's `require` resolves from
 * its own file), left to that require: the stand-ins below load their side bundle through it.
 */
const LOADER_FROM_BUNDLE = '../../bin/load-cli.js';

/** Leaves a stand-in's require of LOADER_FROM_BUNDLE (in `namespace`) out of the bundle. */
function loaderStaysExternal(build, namespace) {
  build.onResolve({ filter: /^\.\.\/\.\.\/bin\/load-cli\.js$/, namespace }, () => ({ path: LOADER_FROM_BUNDLE, external: true }));
}

/**
 * Baton's schemas are built on first use (src/shared/built-on-first-use.ts), so a process that
 * never parses needs nothing of zod; but a bundle runs every module's top level at load, zod's
 * own (~450 KB of classes and checks) among them. Here Baton's sources get a `z` that loads zod
 * the first time it is read, and a warm `baton list` or the picker's first screen never does
 * (issue 15, bench/README.md "Tenth sitting"). zod itself is not in the bundle but in a side bundle
 * (ZOD_BUNDLE, buildZodBundle) compiled with its own code cache at that first read: deferred
 * inside the bundle, its ~250 KB were still read, held in one large young string and compiled
 * with the bundle's cache before a warm listing or the picker's first frame (bench/README.md,
 * "Eighteenth sitting"). Only for the bundles whose usual run parses nothing (parsesRarely): a
 * handoff parses at every run (+80 ms CPU with zod deferred inside it), and so does a host (`baton
 * serve`, in the whole CLI's bundle: a new host's CPU to its first page 470 -> 700 ms with it,
 * candidates-ui.ts --before). Tests: src/cli/list-local-start.test.ts, scripts/build-cli-side-bundles.test.js.
 */
function zodOnFirstUse() {
  return {
    name: 'zod-on-first-use',
    setup(build) {
      build.onResolve({ filter: /^zod$/ }, (args) =>
        /[\\/]src[\\/]/.test(args.importer) && !/[\\/]node_modules[\\/]/.test(args.importer) ? { path: 'zod', namespace: 'zod-on-first-use' } : undefined,
      );
      loaderStaysExternal(build, 'zod-on-first-use');
      // Kept once read: esbuild's interop reads `z` through this getter at every use.
      build.onLoad({ filter: /.*/, namespace: 'zod-on-first-use' }, () => ({
        contents: `let z;\nObject.defineProperty(exports, 'z', { enumerable: true, get: () => (z ??= require(${JSON.stringify(LOADER_FROM_BUNDLE)}).loadZod().cli.z) });\n`,
        loader: 'js',
      }));
    },
  };
}

/**
 * zod alone for zodOnFirstUse's stand-in: its CommonJS build (its locales trimmed by
 * zodEnglishOnly, as the ES build's are), whose exports are the side bundle's. Bundled from the ES
 * build, zod's ~80 modules kept their namespace objects, and esbuild defines those (~1,200
 * getters) at every load: the list bundle's init took 11.7 ms CPU against 5.0 with the CommonJS
 * build, its cache 505 KB against 316 (bench/README.md, "Twelfth sitting: the warm listing without a host").
 */
async function buildZodBundle() {
  await build({ ...cliOptions, entryPoints: [createRequire(import.meta.url).resolve('zod')], outfile: ZOD_BUNDLE, sourcemap: false, plugins: [zodEnglishOnly()] });
  await storeWrapped(ZOD_BUNDLE);
}

/**
 * secretlint's recommended preset and its core (~360 KB) are for text a scan reads for the first
 * time: a warm listing redacts nothing, nor does the picker's first screen. Each import of
 * src/core/redact/secretlint-preset.ts gets a stand-in that loads that module, bundled alone with
 * secretlint (SECRETLINT_BUNDLE, buildSecretlintBundle), at the first read of PRESET_RULES or call
 * of lintWindow; preset-prefilter.ts reads PRESET_RULES at its first window, so a scan that
 * redacts nothing (no new file) does not load it either. For the parsesRarely bundles (the list
 * and resume bundles hold secretlint; a handoff's redaction is in the handoff bundle or the host).
 * Tests: src/cli/list-local-start.test.ts, scripts/build-cli-side-bundles.test.js.
 */
function secretlintOnFirstUse() {
  const preset = join(process.cwd(), 'src', 'core', 'redact', 'secretlint-preset.ts');
  return {
    name: 'secretlint-on-first-use',
    setup(build) {
      build.onResolve({ filter: /[\\/]secretlint-preset\.js$/ }, (args) => (join(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === preset ? { path: preset, namespace: 'secretlint-on-first-use' } : undefined));
      loaderStaysExternal(build, 'secretlint-on-first-use');
      build.onLoad({ filter: /.*/, namespace: 'secretlint-on-first-use' }, () => ({
        contents: [
          'let loaded;',
          `const preset = () => (loaded ??= require(${JSON.stringify(LOADER_FROM_BUNDLE)}).loadSecretlint().cli);`,
          "Object.defineProperty(exports, 'PRESET_RULES', { enumerable: true, get: () => preset().PRESET_RULES });",
          'exports.lintWindow = (window, rules) => preset().lintWindow(window, rules);',
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/** src/core/redact/secretlint-preset.ts with secretlint, for secretlintOnFirstUse's stand-in. */
async function buildSecretlintBundle() {
  await build({ ...cliOptions, entryPoints: ['src/core/redact/secretlint-preset.ts'], outfile: SECRETLINT_BUNDLE, sourcemap: false });
  await storeWrapped(SECRETLINT_BUNDLE);
}

/**
 * Node's crypto module loads ~15 internal modules (ciphers, keys, x509, streams' transform) when
 * required, and a bundle requires it at load from every module that imports it (the store, the
 * transport's token, ids). A warm `baton list --json` without a host hashes, signs and draws
 * nothing random, yet paid for that load in both list bundles (issue 15, bench/README.md "Twelfth
 * sitting: the warm listing without a host"). Here Baton's sources get a `node:crypto` of plain
 * functions that require the real module at their first call, so a process that calls none never
 * loads it. An ES module: esbuild links its exports directly, where a CommonJS stand-in was copied
 * export by export (67 getters) into every one of its 25 importers at load. Functions only, and
 * no classes: importing anything else by value from node:crypto fails the build here ("No matching
 * export"). src/core/hash.ts keeps the real module: it probes `crypto.hash`, which some Node 20
 * releases lack, and a stand-in would always have it. Only for the parsesRarely bundles.
 * Test: src/cli/list-local-start.test.ts.
 */
function cryptoOnFirstUse() {
  // Read here, at build time: names every supported Node has (engines: >=20) besides these.
  const functions = Object.keys(nodeCrypto).filter((name) => name !== 'hash' && /^[a-z]/.test(name) && typeof nodeCrypto[name] === 'function');
  const hashModule = join(process.cwd(), 'src', 'core', 'hash.ts');
  return {
    name: 'crypto-on-first-use',
    setup(build) {
      build.onResolve({ filter: /^node:crypto$/ }, (args) =>
        /[\\/]src[\\/]/.test(args.importer) && !/[\\/]node_modules[\\/]/.test(args.importer) && args.importer !== hashModule ? { path: 'crypto', namespace: 'crypto-on-first-use' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'crypto-on-first-use' }, () => ({
        contents: ['let loaded;', "const crypto = () => (loaded ??= require('node:crypto'));", ...functions.map((name) => `export function ${name}(...args) { return crypto().${name}(...args); }`)].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * Each import of node:fs/promises in src/ gets a stand-in whose functions load the real module on
 * their first call. The fast-list bundle's endpoint module imports it at its top for the token's
 * first creation, which a `baton list --json` with a host running never does: loading it (12
 * modules, readline's among them) was ~2.5 ms of that process's CPU (bench/README.md,
 * "Fourteenth sitting"). The resume bundle's top level loaded it too, before the picker's first
 * screen, which from a host calls none of it. Functions only: importing anything else from it
 * fails the build here. For these bundles only (and the list bundle: its store opened for reading reads synchronously). Tests: src/cli/list-fast-hosted.test.ts,
 * src/cli/picker/resume-picker.test.ts.
 */
function fsPromisesOnFirstUse() {
  const functions = Object.keys(nodeFsPromises).filter((name) => /^[a-z]/.test(name) && typeof nodeFsPromises[name] === 'function');
  return {
    name: 'fs-promises-on-first-use',
    setup(build) {
      build.onResolve({ filter: /^node:fs\/promises$/ }, (args) =>
        /[\\/]src[\\/]/.test(args.importer) && !/[\\/]node_modules[\\/]/.test(args.importer) ? { path: 'fs/promises', namespace: 'fs-promises-on-first-use' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'fs-promises-on-first-use' }, () => ({
        contents: ['let loaded;', "const fsPromises = () => (loaded ??= require('node:fs/promises'));", ...functions.map((name) => `export function ${name}(...args) { return fsPromises().${name}(...args); }`)].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * Each import of node:v8 in src/ gets a stand-in whose functions load the real module on their
 * first call. Only src/core/perf/heap-growth.ts imports it, for a flag a host or a scan of 10,000
 * files sets; the list bundle initialises that module at its top (the candidate index's module
 * imports it), so every warm `baton list` loaded node:v8 with its heap_utils and promise_hooks
 * (~1.5 ms of CPU) and called none of it, and so did the resume bundle before the picker's first
 * screen without a host. Functions only, as fsPromisesOnFirstUse.
 * Test: src/cli/list-local-start.test.ts.
 */
function v8OnFirstUse() {
  const functions = Object.keys(nodeV8).filter((name) => /^[a-z]/.test(name) && typeof nodeV8[name] === 'function');
  return {
    name: 'v8-on-first-use',
    setup(build) {
      build.onResolve({ filter: /^node:v8$/ }, (args) =>
        /[\\/]src[\\/]/.test(args.importer) && !/[\\/]node_modules[\\/]/.test(args.importer) ? { path: 'v8', namespace: 'v8-on-first-use' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'v8-on-first-use' }, () => ({
        contents: ['let loaded;', "const v8 = () => (loaded ??= require('node:v8'));", ...functions.map((name) => `export function ${name}(...args) { return v8().${name}(...args); }`)].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * Every bundled importer of fast-string-width (clack, fast-wrap-ansi) gets src/cli/picker/text-width.ts
 * instead: the same widths, counted without fast-string-width's Unicode regexes when a line holds
 * one-column characters and colours only (~5 ms to the picker's first frame, bench/README.md
 * "Eleventh sitting", second round). Its own import of fast-string-width is left as it is.
 */
function narrowTextWidth() {
  const textWidth = join(process.cwd(), 'src', 'cli', 'picker', 'text-width.ts');
  return {
    name: 'narrow-text-width',
    setup(build) {
      build.onResolve({ filter: /^fast-string-width$/ }, (args) => (args.importer === textWidth ? undefined : { path: textWidth }));
    },
  };
}

/**
 * clack's modules (@clack/core, @clack/prompts) get src/cli/picker/style-text.ts for node:util:
 * util.styleText's colour check loads Node's colour module, which builds process.stderr (a
 * tty.WriteStream on a terminal) at clack's top level, before the picker's first frame. The
 * stand-in colours on the same terms (bench/README.md, "Fifteenth sitting"). Test:
 * src/cli/picker/style-text.test.ts, src/cli/picker/resume-picker.test.ts.
 */
function clackStyleText() {
  const styleText = join(process.cwd(), 'src', 'cli', 'picker', 'style-text.ts');
  return {
    name: 'clack-style-text',
    setup(build) {
      build.onResolve({ filter: /^node:util$/ }, (args) => (/[\\/]node_modules[\\/]@clack[\\/]/.test(args.importer) ? { path: styleText } : undefined));
    },
  };
}

const cliOptions = {
  entryPoints: ['src/cli/index.ts'],
  // Two levels below the repo root, like src/server: out/renderer is found the same way.
  outfile: CLI_BUNDLE,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  // ws loads these optional native speed-ups only when installed.
  // @napi-rs/keyring loads a prebuilt native binary per platform: it stays a package, found in node_modules.
  external: ['bufferutil', 'utf-8-validate', 'electron', '@napi-rs/keyring'],
  // The sources are ES modules; in the CommonJS bundle import.meta.url is this file's URL.
  define: { 'import.meta.url': '__batonModuleUrl' },
  banner: { js: "var __batonModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
  // web-tree-sitter's ES build loads node:module with a dynamic import(), which vm.Script (bin/
  // load-cli.js) cannot run; its CommonJS build does not.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' },
  plugins: [zodEnglishOnly(), commanderChildProcessOnUse(), narrowTextWidth(), clackStyleText()],
};
/** The bundles whose usual run parses nothing (a warm listing, the picker's first screen): zod loads on first use there. */
const parsesRarely = { ...cliOptions, plugins: [...cliOptions.plugins, zodOnFirstUse(), secretlintOnFirstUse(), cryptoOnFirstUse()] };
// Their side bundles first: a parsesRarely bundle is never written without the side bundles it loads.
await buildZodBundle();
await buildSecretlintBundle();
await build(cliOptions);
// `baton handoff` alone (src/cli/handoff-main.ts), same options: bin/baton.js runs it for a
// handoff, so that process reads and deserializes only what a handoff runs.
// A handoff parses at every run, so it keeps zod loaded at start (zodOnFirstUse would defer, not save, that work).
await build({ ...cliOptions, entryPoints: ['src/cli/handoff-main.ts'], outfile: HANDOFF_BUNDLE, sourcemap: false });
await writeFile(HANDOFF_BUNDLE, asciiOnly(readFileSync(HANDOFF_BUNDLE, 'utf8')));
// `baton resume` with no id (the picker) alone (src/cli/resume-main.ts): its first screen waits for
// what the process reads and deserializes before it.
await build({ ...parsesRarely, plugins: [...parsesRarely.plugins, fsPromisesOnFirstUse(), v8OnFirstUse()], entryPoints: ['src/cli/resume-main.ts'], outfile: RESUME_BUNDLE, sourcemap: false });
// ASCII only (see asciiOnly): one regex literal of trim-tool-output.ts made the picker's whole 0.9 MB
// source a two-byte string, read and decoded before its first screen.
await storeWrapped(RESUME_BUNDLE);
// The picker's first screen from a running host (src/cli/picker-main.ts): the host's client, the
// list view and clack, without the store, the scanner and commander the resume bundle holds.
await build({ ...parsesRarely, plugins: [...parsesRarely.plugins, fsPromisesOnFirstUse()], entryPoints: ['src/cli/picker-main.ts'], outfile: PICKER_BUNDLE, sourcemap: false });
await storeWrapped(PICKER_BUNDLE);
// `baton show` alone (src/cli/show-main.ts): `show --all --json` of a big session is measured against a bare parse.
await build({ ...cliOptions, entryPoints: ['src/cli/show-main.ts'], outfile: SHOW_BUNDLE });
// `baton list` with no host to ask (src/cli/list-main.ts): a warm listing reads the candidate index,
// and the whole CLI's start-up was most of its time (issue 15). node:fs/promises on first use: the
// store opened for reading (src/core/store/reading-fs.ts) reads synchronously, so a warm listing
// never calls it.
await build({ ...parsesRarely, plugins: [...parsesRarely.plugins, fsPromisesOnFirstUse(), v8OnFirstUse()], entryPoints: ['src/cli/list-main.ts'], outfile: LIST_BUNDLE, sourcemap: false });
// ASCII only, as the handoff's: three regex characters made its whole source a two-byte string.
await storeWrapped(LIST_BUNDLE);

// `baton serve` alone (src/cli/serve-main.ts): a new host read and deserialised the whole CLI's
// bundle and cache before its first answer (issue 15, "Seventeenth sitting"). zod stays loaded at
// start (cliOptions, not parsesRarely): a host parses at once (see zodOnFirstUse). Its cache is
// warmed by a real host start below (warmServeBundle). Its source map (not shipped) names the
// sources in a host's CPU profile (bench/renderer/cpu-profile-split.ts): the wrap (storeWrapped)
// adds to line 1 only, which holds the banner alone.
await build({ ...cliOptions, entryPoints: ['src/cli/serve-main.ts'], outfile: SERVE_BUNDLE });
await storeWrapped(SERVE_BUNDLE);

// `baton list --json` with a host running: a small bundle bin/baton.js tries before the whole CLI.
await build({ ...parsesRarely, plugins: [...parsesRarely.plugins, fsPromisesOnFirstUse()], entryPoints: ['src/cli/list-fast.ts'], outfile: FAST_LIST_BUNDLE, sourcemap: false });
await storeWrapped(FAST_LIST_BUNDLE);
// An encrypted store's keychain read (src/cli/store-key-reads.ts), started before the list or
// resume bundle compiles: the bus client alone (the keyring binding stays external).
await build({ ...parsesRarely, plugins: [...parsesRarely.plugins, fsPromisesOnFirstUse()], entryPoints: ['src/cli/store-key-reads.ts'], outfile: KEY_READ_BUNDLE, sourcemap: false });
await storeWrapped(KEY_READ_BUNDLE);
// `baton handoff --messages FILE` with a host running (src/cli/handoff-fast.ts): the request goes to
// the host, which lands and takes the session; this bundle only reads the file, talks and prints.
await build({ ...parsesRarely, entryPoints: ['src/cli/handoff-fast.ts'], outfile: FAST_HANDOFF_BUNDLE, sourcemap: false });
await writeFile(FAST_HANDOFF_BUNDLE, asciiOnly(readFileSync(FAST_HANDOFF_BUNDLE, 'utf8')));

// The cold scan's worker thread (src/core/importers/scan-pool.ts looks for it next to the bundle).
await buildScanWorker(join(dirname(CLI_BUNDLE), SCAN_WORKER_FILE));

// The bash grammar of the risk policy: src/core/policy/parser.ts looks for these next to the bundle.
for (const wasm of ['web-tree-sitter/tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  await copyFile(join('node_modules', wasm), join(dirname(CLI_BUNDLE), basename(wasm)));
}

// The warm-ups below compile each bundle through load-cli.js, which hands V8 the cache file beside
// it. The previous build's cache must not be that file: V8 checks a cache against its source's
// length only (and its flags), so a rebuilt bundle of the same length ran the old bundle's bytecode
// and a hosted `baton list` failed with "kt is not a function" (2026-12-01), and every cache warmed
// from it carried the old code on. Each cache is made from its bundle alone.
for (const cache of [CLI_CACHE, HANDOFF_CACHE, RESUME_CACHE, PICKER_CACHE, SHOW_CACHE, LIST_CACHE, FAST_LIST_CACHE, KEY_READ_CACHE, FAST_HANDOFF_CACHE, ZOD_CACHE, SECRETLINT_CACHE, SERVE_CACHE]) await rm(cache, { force: true });

// Warm the whole CLI's cache with --help (every command's module); a handoff runs from its own
// bundle below. (With the dry-run handoff also run here, V8 aborted lazily compiling a function
// of `list --no-host` from this cache: "Check failed: stack_overflow()", see the check at the end.)
const { script, cli } = compileCli();
const scratch = await mkdtemp(join(tmpdir(), 'baton-build-'));
/** A warm-up child (warmFastList, warmHostedPicker) that has not ended by then is stopped: the build never hangs on one. */
const WARM_UP_TIMEOUT_MS = 60_000;
const messages = join(scratch, 'm.jsonl');
await writeFile(messages, '{"role":"user","content":"warm the code cache"}\n');
// A messages file the host refuses (line 2 is not JSON): the hosted probes' bad input.
const badMessages = join(scratch, 'bad.jsonl');
await writeFile(badMessages, '{"role":"user","content":"fine"}\nnot json\n');
/** Runs a warm-up with stdout and stderr silenced, and leaves the exit code as it was. */
async function quietly(warmUp) {
  const quiet = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = process.stderr.write = () => true;
  try {
    await warmUp();
  } finally {
    process.stdout.write = quiet.out;
    process.stderr.write = quiet.err;
    process.exitCode = 0;
  }
}
process.env.BATON_HOME = join(scratch, 'home');
await quietly(() => cli.main(['node', 'baton', '--help']));
// `baton serve` loads the host's modules after its address (src/cli/commands/serve.ts): --help
// evaluates serve.ts but not them, so they are evaluated here to be in the cache too.
await cli.warmHostModules();
await writeFile(CLI_CACHE, script.createCachedData());

// The handoff bundle's cache, warmed by the same dry run (the --help of every command is not in it).
const handoff = compileHandoff();
await quietly(() => handoff.cli.main(['node', 'baton', 'handoff', '--cwd', scratch, '--title', 'warm', '--messages', messages, '--dry-run', '--no-launch', '--json']));
await writeFile(HANDOFF_CACHE, handoff.script.createCachedData());


// The hosted picker's cache, warmed by the same off-screen picker (clack and the list view) and
// by its first screen's request to a scratch host (warmHostedPicker).
await warmHostedPicker();

// The show bundle's cache, warmed by `show --all --json` of a session landed here (no receiver:
// the handoff saves it and says so) and by `show` of one that is not there.
await quietly(() => handoff.cli.main(['node', 'baton', 'handoff', '--cwd', scratch, '--title', 'warm', '--messages', messages, '--no-launch', '--json', '--timeout', '0']));
const [landed] = readdirSync(join(process.env.BATON_HOME, 'sessions'));
const show = compileShow();
await quietly(async () => {
  if (landed) await show.cli.main(['node', 'baton', 'show', landed, '--all', '--json']);
  await show.cli.main(['node', 'baton', 'show', 's-warm-missing']);
});
await writeFile(SHOW_CACHE, show.script.createCachedData());

// The list bundle's cache, warmed by the listing it is for: a warm `list --json` read from the
// candidate index. A child process scans a one-session corpus first (its folders dated an hour
// back, so the index trusts them at once), so the scanner's functions stay out of this cache.
const listHome = join(scratch, 'list-home');
const project = join(listHome, '.claude', 'projects', '-warm');
mkdirSync(project, { recursive: true });
writeFileSync(join(project, '00000000-0000-4000-8000-000000000000.jsonl'), `${JSON.stringify({ type: 'user', uuid: '00000000-0000-4000-8000-000000000001', sessionId: '00000000-0000-4000-8000-000000000000', cwd: '/warm', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'warm the code cache' } })}\n`);
const anHourAgo = new Date(Date.now() - 3_600_000);
for (const dir of [project, join(listHome, '.claude', 'projects'), join(listHome, '.claude'), listHome]) utimesSync(dir, anHourAgo, anHourAgo);
const listEnv = { HOME: listHome, BATON_HOME: join(scratch, 'list-data'), XDG_RUNTIME_DIR: join(scratch, 'list-run') };
spawnSync(process.execPath, [join('bin', 'baton.js'), 'list', '--json', '--no-host'], { env: { ...process.env, ...listEnv }, stdio: 'ignore', timeout: 60_000 });
// In a child with its stdout discarded: the listing writes its JSON straight to fd 1 (fdJsonSink),
// which quietly() cannot silence. The child makes the cache from the run, as the others here are.
const warmList = `const { compileList, LIST_CACHE } = require(${JSON.stringify(join(process.cwd(), 'bin', 'load-cli.js'))});
const list = compileList();
list.cli.main(['node', 'baton', 'list', '--json', '--no-host']).then(() => require('node:fs').writeFileSync(LIST_CACHE, list.script.createCachedData()));`;
spawnSync(process.execPath, ['-e', warmList], { env: { ...process.env, ...listEnv }, stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 });
if (!existsSync(LIST_CACHE)) throw new Error(`build-cli: the list bundle's warm-up wrote no ${LIST_CACHE}`);

// The side bundles' caches (zodOnFirstUse, secretlintOnFirstUse), each warmed by a listing of the
// list bundle that loads it, in a child with its stdout discarded (see warmSideBundle).
await warmSideBundle(ZOD_BUNDLE, ZOD_CACHE, await parsingListEnv());
await warmSideBundle(SECRETLINT_BUNDLE, SECRETLINT_CACHE, await redactingListEnv());

// The resume bundle's cache, warmed by its refusal off a terminal (module init and the command
// line), one off-screen picker (its first screen's functions) and the first screen's listing
// without a host (the store's open and the candidate index's newest rows) on the corpus indexed
// above, in a child for that environment: without it, a picker without a host compiled those
// functions before its first frame.
const warmResume = `const { compileResume, RESUME_CACHE } = require(${JSON.stringify(join(process.cwd(), 'bin', 'load-cli.js'))});
const resume = compileResume();
(async () => {
  await resume.cli.main(['node', 'baton', 'resume', '--json']);
  await resume.cli.warmPicker();
  await resume.cli.firstScreenListing();
  require('node:fs').writeFileSync(RESUME_CACHE, resume.script.createCachedData());
})();`;
spawnSync(process.execPath, ['-e', warmResume], { env: { ...process.env, ...listEnv }, stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 });
if (!existsSync(RESUME_CACHE)) throw new Error(`build-cli: the resume bundle's warm-up wrote no ${RESUME_CACHE}`);

// The fast-list bundle's cache, warmed by a hosted listing (warmFastList).
await warmFastList();
// The key-read bundle's cache, warmed by a keychain read on a Secret Service of the build's own (warmKeyRead).
await warmKeyRead();

// The hosted handoff's cache, warmed by a handoff to a host: a `baton serve` of this build in a
// scratch data dir, so the connection, the request and the report are in it, not only the load.
await warmFastHandoff();

// The serve bundle's cache, warmed by a host of this build starting and answering the page's
// first requests (warmServeBundle).
await warmServeBundle();

// A cache made after running code can make Node 20's V8 abort the process when it later compiles
// a function the warm-up did not run (seen once, above). Each cache is tried in fresh processes
// on paths the warm-up did not take; a cache that aborts any of them is replaced by one of the
// compile alone (top level only: slower to start, never wrong).
const probes = [
  { bundle: CLI_BUNDLE, cache: CLI_CACHE, runs: [['list', '--json', '--no-host', '--no-agents'], ['show', '--json', 'nope'], ['stats', '--json'], ['policy', '--help']] },
  { bundle: RESUME_BUNDLE, cache: RESUME_CACHE, runs: [['resume']] },
  { bundle: PICKER_BUNDLE, cache: PICKER_CACHE, runs: [['resume']] },
  { bundle: SHOW_BUNDLE, cache: SHOW_CACHE, runs: [['show', 'nope'], ['show', 'nope', '--json'], ['show', '--help']] },
  // A host's start is what its warm-up ran; these take its help and its refusals instead.
  { bundle: SERVE_BUNDLE, cache: SERVE_CACHE, runs: [['serve', '--help'], ['serve', '--port', 'x'], ['serve', '--port', 'x', '--json']] },
  // A second host on a data dir a host already serves: refused (ALREADY_RUNNING), printed both ways.
  { bundle: SERVE_BUNDLE, cache: SERVE_CACHE, host: true, runs: [['serve', '--port', '0', '--json'], ['serve', '--port', '0']] },
  { bundle: LIST_BUNDLE, cache: LIST_CACHE, runs: [['list', '--json', '--no-host', '--no-agents'], ['list', '--no-agents', '--no-host'], ['list', '--help'], ['list', '--limit', 'x']] },
  // The hosted listing in ways its warm-up did not take (a limit, a source, a directory, a bad limit the full CLI reports).
  {
    bundle: FAST_LIST_BUNDLE,
    cache: FAST_LIST_CACHE,
    host: true,
    runs: [
      ['list', '--json', '--limit', '1'],
      ['list', '--json', '--source', 'codex', '--no-agents'],
      ['list', '--json', '--cwd', scratch],
      ['list', '--json', '--limit', 'x'],
    ],
  },
  // No host here: the fast bundle declines (the cache was warmed on the hosted path).
  { bundle: FAST_HANDOFF_BUNDLE, cache: FAST_HANDOFF_CACHE, runs: [['handoff', '--messages', messages, '--json', '--timeout', '0'], ['handoff', '--help']] },
  // With a scratch `baton serve`: the hosted path in ways the warm-up did not take (printed for
  // people, a bad messages file the host refuses, a title-less request).
  {
    bundle: FAST_HANDOFF_BUNDLE,
    cache: FAST_HANDOFF_CACHE,
    host: true,
    runs: [
      ['handoff', '--cwd', scratch, '--messages', messages, '--no-launch'],
      ['handoff', '--cwd', scratch, '--messages', badMessages, '--json'],
      ['handoff', '--cwd', scratch, '--messages', badMessages],
    ],
  },
  { bundle: HANDOFF_BUNDLE, cache: HANDOFF_CACHE, runs: [['handoff', '--messages', join(scratch, 'missing.jsonl'), '--json'], ['handoff', '--cwd', scratch, '--messages', messages, '--no-launch', '--json', '--timeout', '0']] },
  // zod's error path (an encryption.json of the wrong shape, reported with zod's words), and the
  // warm-up's parsed rows printed for people.
  { bundle: ZOD_BUNDLE, cache: ZOD_CACHE, env: probeEnvWithBadEncryption(), runs: [['list', '--json', '--no-host']] },
  { bundle: ZOD_BUNDLE, cache: ZOD_CACHE, env: await parsingListEnv(), runs: [['list', '--no-host', '--no-agents']] },
  // Rules the warm-up's prompt did not set off (a private key, a Slack token, a database URL).
  { bundle: SECRETLINT_BUNDLE, cache: SECRETLINT_CACHE, env: probeEnvWithOtherSecrets(), runs: [['list', '--json', '--no-host']] },
];
for (const { bundle, cache, runs, host, env: probeEnv } of probes) {
  const probeHost = host ? await startScratchHost('probe-host') : null;
  if (probeHost && !probeHost.listening) process.stderr.write('build-cli: no scratch host for the hosted probes; they ran declined\n');
  const env = probeHost?.env ?? { ...process.env, BATON_HOME: join(scratch, 'probe'), XDG_RUNTIME_DIR: join(scratch, 'probe-run'), ...probeEnv };
  const aborted = runs.find((args) => {
    const run = spawnSync(process.execPath, [join('bin', 'baton.js'), ...args], { env, encoding: 'utf8', timeout: 60_000 });
    // A probe killed by the timeout says nothing about the cache: named, not taken for V8's abort.
    if (run.error?.code === 'ETIMEDOUT') {
      process.stderr.write(`build-cli: \`baton ${args.join(' ')}\` (probe of ${basename(cache)}) did not end within 60 s\n`);
      return false;
    }
    return run.signal !== null || /Fatal error|Check failed/.test(run.stderr);
  });
  await probeHost?.stop();
  if (aborted) {
    process.stderr.write(`build-cli: ${basename(cache)} made V8 abort on \`baton ${aborted.join(' ')}\`; writing a cache of the compile alone\n`);
    await writeFile(cache, compileOnlyCache(bundle));
  }
}
// The serve cache on a first-ever start (a new data dir: the store made, the cold scan), which
// its warm-up's kept second start did not run.
if (await serveFirstStartAborts()) {
  process.stderr.write(`build-cli: ${basename(SERVE_CACHE)} made a first-ever \`baton serve\` abort or not listen; writing a cache of the compile alone\n`);
  await writeFile(SERVE_CACHE, compileOnlyCache(SERVE_BUNDLE));
}
await rm(scratch, { recursive: true, force: true });

/**
 * Runs `baton list --json --no-host` from the list bundle in a child, in `env`, and writes the
 * side bundle `file`'s code cache from its own script once the listing loaded it: the cache is of
 * that side bundle alone (load-cli.js loadSideBundle compiles it), so it holds what a listing that
 * parses or redacts compiled of it. A listing that did not load it fails the build: its cache
 * would be of nothing.
 */
async function warmSideBundle(file, cache, env) {
  const warm = `const loader = require(${JSON.stringify(join(process.cwd(), 'bin', 'load-cli.js'))});
const list = loader.compileList();
list.cli.main(['node', 'baton', 'list', '--json', '--no-host']).then(() => {
  if (!loader.sideBundleLoaded(${JSON.stringify(file)})) throw new Error('the listing did not load ${basename(file)}');
  const side = ${JSON.stringify(file)} === loader.ZOD_BUNDLE ? loader.loadZod() : loader.loadSecretlint();
  require('node:fs').writeFileSync(${JSON.stringify(cache)}, side.script.createCachedData());
});`;
  spawnSync(process.execPath, ['-e', warm], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 });
  if (!existsSync(cache)) throw new Error(`build-cli: the warm-up of ${basename(file)} wrote no ${basename(cache)}`);
}

/**
 * Where a listing parses with zod: the store the handoff warm-up landed a session in, its index
 * and journal gone, so the session's row comes from its session.json, parsed. No agents' folders
 * (an empty HOME): nothing is scanned or redacted.
 */
async function parsingListEnv() {
  const data = join(scratch, 'zod-data');
  cpSync(process.env.BATON_HOME, data, { recursive: true });
  await rm(join(data, 'index.json'), { force: true });
  await rm(join(data, 'index.journal.jsonl'), { force: true });
  return { HOME: join(scratch, 'zod-user'), BATON_HOME: data, XDG_RUNTIME_DIR: join(scratch, 'zod-run') };
}

/**
 * Where a listing redacts with secretlint: a cold listing of one Claude Code session whose prompt
 * holds keys shaped like GitHub's and AWS's (made up), so the preset's rules run on it.
 */
async function redactingListEnv() {
  const home = join(scratch, 'secretlint-user');
  const project = join(home, '.claude', 'projects', '-warm');
  mkdirSync(project, { recursive: true });
  const prompt = `push with ${'gh'}p_aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d and ${'AKIA'}QWERTYUIOPASDFGH`;
  writeFileSync(join(project, '00000000-0000-4000-8000-000000000001.jsonl'), `${JSON.stringify({ type: 'user', uuid: '00000000-0000-4000-8000-000000000002', sessionId: '00000000-0000-4000-8000-000000000001', cwd: '/warm', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: prompt } })}\n`);
  return { HOME: home, BATON_HOME: join(scratch, 'secretlint-data'), XDG_RUNTIME_DIR: join(scratch, 'secretlint-run') };
}

/** A data dir whose encryption.json lacks its key: the listing refuses it with zod's words. */
function probeEnvWithBadEncryption() {
  const data = join(scratch, 'probe-bad-encryption');
  mkdirSync(data, { recursive: true, mode: 0o700 });
  writeFileSync(join(data, 'encryption.json'), JSON.stringify({ version: 1, mode: 'keyring' }));
  return { BATON_HOME: data, HOME: join(scratch, 'probe-user') };
}

/** A cold listing of one session whose prompt holds secrets of other kinds than redactingListEnv's (made up). */
function probeEnvWithOtherSecrets() {
  const home = join(scratch, 'probe-secrets-user');
  const project = join(home, '.claude', 'projects', '-probe');
  mkdirSync(project, { recursive: true });
  const prompt = `${'-----BEGIN'} RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----\n${'xox'}b-1234567890-1234567890123-abcdefghijklmnopqrstuvwx postgres://admin:hunter22@db.example.com/app`;
  writeFileSync(join(project, '00000000-0000-4000-8000-000000000003.jsonl'), `${JSON.stringify({ type: 'user', uuid: '00000000-0000-4000-8000-000000000004', sessionId: '00000000-0000-4000-8000-000000000003', cwd: '/probe', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: prompt } })}\n`);
  return { HOME: home, BATON_HOME: join(scratch, 'probe-secrets-data') };
}

/**
 * The serve bundle's cache, warmed by what a new host runs before its page's first rows: a child
 * runs `baton serve --json` from this bundle in a scratch data dir (HOME: the one-session corpus
 * above, never the builder's) and answers its page's first screen (scripts/serve-first-screen.cjs),
 * and only then makes the cache (V8's createCachedData holds what ran by then). Twice in the same
 * data dir: the first start makes the store and the candidates' index, the second, whose cache is
 * kept, reads them as a host with a warm cache does. Without an answer the cache is of the compile
 * alone (a slower start, never wrong). Test: src/cli/serve-bundle.test.ts.
 */
async function warmServeBundle() {
  const env = { ...process.env, HOME: listHome, BATON_HOME: join(scratch, 'serve-warm-home'), XDG_RUNTIME_DIR: join(scratch, 'serve-warm-run') };
  // The cache is made before the host stops (SIGTERM: its store closed as at a Ctrl+C).
  const host = (keep) => `require(${JSON.stringify(join(process.cwd(), 'scripts', 'serve-first-screen.cjs'))}).serveFirstScreen().then(({ serve }) => {
  if (${keep}) require('node:fs').writeFileSync(${JSON.stringify(SERVE_CACHE)}, serve.script.createCachedData());
  process.kill(process.pid, 'SIGTERM');
}, (error) => {
  process.stderr.write('build-cli: the serve warm-up failed: ' + error.stack + '\\n');
  process.exit(1);
});`;
  await runWarmUp(host(false), env);
  await runWarmUp(host(true), env);
  if (!existsSync(SERVE_CACHE)) {
    process.stderr.write("build-cli: the serve bundle's warm-up host answered nothing; its cache is of the compile alone\n");
    await writeFile(SERVE_CACHE, compileOnlyCache(SERVE_BUNDLE));
  }
}

/**
 * Runs one hosted handoff against `baton serve` (the serve bundle, started in a child with a
 * scratch data dir) and writes the fast-handoff cache from it. Without a host the cache is of the
 * declined path (the bundle's load and the argument check) and the handoff still runs correctly.
 */
async function warmFastHandoff() {
  const { env, listening, stop } = await startScratchHost('fast-handoff');
  const handoff = compileFastHandoff();
  const saved = { home: process.env.BATON_HOME, runtime: process.env.XDG_RUNTIME_DIR };
  try {
    process.env.BATON_HOME = env.BATON_HOME;
    process.env.XDG_RUNTIME_DIR = env.XDG_RUNTIME_DIR;
    const argv = ['node', 'baton', 'handoff', '--cwd', scratch, '--title', 'warm', '--messages', messages, '--no-launch', '--json'];
    let warmed;
    await quietly(async () => {
      warmed = await handoff.cli.tryFastHandoff(listening ? argv : ['node', 'baton', 'handoff', '--json']);
    });
    if (warmed?.exitCode === undefined) process.stderr.write('build-cli: the warm-up handoff was not hosted; the fast-handoff cache holds less of its path\n');
  } finally {
    await stop();
    process.env.BATON_HOME = saved.home;
    if (saved.runtime === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = saved.runtime;
  }
  await writeFile(FAST_HANDOFF_CACHE, handoff.script.createCachedData());
}

/**
 * The fast-list bundle's cache, warmed by the listing it is for: `baton list --json` answered by a
 * `baton serve` of this build in a scratch data dir, so the connection, the handshake's proofs,
 * the request and the answer's copy to fd 1 come compiled from the cache. Warmed by the declined
 * path alone (a call that stopped at the socket check), every hosted listing compiled them while
 * it ran (bench/README.md, "Seventeenth sitting"). In a child with stdout discarded: the listing
 * writes straight to fd 1. Without a host, the declined path as before (a slower start, never wrong).
 * Test: src/cli/list-fast-hosted.test.ts.
 */
async function warmFastList() {
  const hosted = `const { compileFastList, FAST_LIST_CACHE } = require(${JSON.stringify(join(process.cwd(), 'bin', 'load-cli.js'))});
const fast = compileFastList();
fast.cli.tryFastList(['node', 'baton', 'list', '--json']).then((hosted) => {
  if (hosted) require('node:fs').writeFileSync(FAST_LIST_CACHE, fast.script.createCachedData());
});`;
  await warmOnScratchHost('fast-list', hosted, FAST_LIST_CACHE, 'the fast-list warm-up was not hosted; its cache holds the declined path only', async () => {
    const fast = compileFastList();
    const saved = { home: process.env.BATON_HOME, runtime: process.env.XDG_RUNTIME_DIR };
    process.env.BATON_HOME = process.env.XDG_RUNTIME_DIR = join(scratch, 'no-host');
    await fast.cli.tryFastList(['node', 'baton', 'list', '--json', '--limit', '1']);
    process.env.BATON_HOME = saved.home;
    if (saved.runtime === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = saved.runtime;
    await writeFile(FAST_LIST_CACHE, fast.script.createCachedData());
  });
}

/**
 * The key-read bundle's cache, warmed by the read it is for: an encrypted scratch store's key read
 * over the bus of a Secret Service of the build's own (keyedScratchStore), run to its answer in a
 * child, so the bus client and its reply parsing come compiled from the cache. Without it an
 * encrypted `baton resume` or `baton list` without a host compiled them lazily before its first
 * screen (bench/README.md, issue 17). Where that cannot run, the cache of the compile alone.
 */
async function warmKeyRead() {
  const keyed = await keyedScratchStore();
  try {
    if (keyed) {
      const read = `const { compileKeyRead, KEY_READ_CACHE } = require(${JSON.stringify(join(process.cwd(), 'bin', 'load-cli.js'))});
const keyRead = compileKeyRead();
// A read that fails costs the cache that read, never the cache's write.
keyRead.cli.warmStoreKeyRead().catch((error) => String(error && error.message)).then((read) => {
  if (read !== true) process.stderr.write('build-cli: the keychain read of the key-read warm-up got no key (' + read + '); its cache lacks the read\\n');
  require('node:fs').writeFileSync(KEY_READ_CACHE, keyRead.script.createCachedData());
});`;
      await runWarmUp(read, { ...process.env, BATON_HOME: keyed.home, DBUS_SESSION_BUS_ADDRESS: keyed.address, XDG_RUNTIME_DIR: join(scratch, 'keyed-run'), HOME: join(scratch, 'keyed-user') });
      if (!existsSync(KEY_READ_CACHE)) process.stderr.write('build-cli: the key-read warm-up wrote no cache (its error is above); the key-read cache lacks the keychain read\n');
    }
  } finally {
    await keyed?.stop();
  }
  if (!existsSync(KEY_READ_CACHE)) await writeFile(KEY_READ_CACHE, compileKeyRead().script.createCachedData());
}

/**
 * A scratch data dir encrypted at rest, its key on a Secret Service of the build's own: the tests'
 * (src/core/store/at-rest/test-support/secret-service.ts, Debian's gnome-keyring on a private bus,
 * bundled here by esbuild), never the person's. Null where that cannot run (not Linux, no
 * dbus-daemon, gnome-keyring-daemon or secret-tool, a start that failed): the warm-up then leaves
 * the keychain read out of its cache (a slower encrypted start, never a wrong one).
 */
async function keyedScratchStore() {
  const tools = ['dbus-daemon', 'gnome-keyring-daemon', 'secret-tool'];
  if (process.platform !== 'linux' || !tools.every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0)) return null;
  const starter = join(scratch, 'secret-service.mjs');
  await build({ entryPoints: ['src/core/store/at-rest/test-support/secret-service.ts'], outfile: starter, bundle: true, platform: 'node', format: 'esm', logLevel: 'silent' });
  let service;
  try {
    service = await (await import(pathToFileURL(starter).href)).startSecretService();
  } catch (error) {
    process.stderr.write(`build-cli: no scratch Secret Service (${error.message.split('\n')[0]}); the key-read cache lacks the keychain read\n`);
    return null;
  } finally {
    process.env.DBUS_SESSION_BUS_ADDRESS = NO_SESSION_BUS; // the starter points this process at its bus: only the warm-up goes there
  }
  const home = join(scratch, 'keyed-home');
  // `baton encrypt --status` opens (creates) the store: encrypted, on by default where a Secret Service answers.
  const status = spawnSync(process.execPath, [join('bin', 'baton.js'), 'encrypt', '--status'], { env: { ...process.env, BATON_HOME: home, XDG_RUNTIME_DIR: join(scratch, 'keyed-run'), HOME: join(scratch, 'keyed-user'), DBUS_SESSION_BUS_ADDRESS: service.address }, encoding: 'utf8', timeout: 60_000 });
  if (!/Encrypted at rest/.test(status.stdout ?? '')) {
    process.stderr.write(`build-cli: the scratch store was not encrypted (${(status.stdout || status.stderr || '').trim().split('\n')[0]}); the key-read cache lacks the keychain read\n`);
    await service.stop();
    return null;
  }
  return { home, address: service.address, stop: () => service.stop() };
}

/**
 * The hosted picker's cache: the off-screen picker (warmPicker), then the first screen's request
 * answered by a `baton serve` of this build in a scratch data dir (warmHostedListing), so the
 * host's client comes compiled from the cache as the fast-list bundle's does (warmFastList; it
 * compiled lazily before every hosted first frame). In a child, in the host's environment; without
 * a host, the off-screen picker alone as before. Test: src/cli/picker/resume-picker.test.ts.
 */
async function warmHostedPicker() {
  const hosted = `const { compilePicker, PICKER_CACHE } = require(${JSON.stringify(join(process.cwd(), 'bin', 'load-cli.js'))});
const picker = compilePicker();
(async () => {
  await picker.cli.warmPicker();
  if (await picker.cli.warmHostedListing()) require('node:fs').writeFileSync(PICKER_CACHE, picker.script.createCachedData());
})();`;
  await warmOnScratchHost('hosted-picker', hosted, PICKER_CACHE, "the hosted picker's warm-up found no host; its cache holds the off-screen picker only", async () => {
    const picker = compilePicker();
    await quietly(() => picker.cli.warmPicker());
    await writeFile(PICKER_CACHE, picker.script.createCachedData());
  });
}

/**
 * Runs `script` (it writes `cache` once its hosted call was answered) in a child, against a
 * scratch host named `name`; where no host listened or the script wrote nothing, says `fallback`
 * and runs `unhosted`, which writes the cache of the path a hostless run takes.
 */
async function warmOnScratchHost(name, script, cache, fallback, unhosted) {
  const { env, listening, stop } = await startScratchHost(name);
  try {
    if (listening) {
      await runWarmUp(script, env);
      if (existsSync(cache)) return;
    }
    process.stderr.write(`build-cli: ${fallback}\n`);
  } finally {
    await stop();
  }
  await unhosted();
}

async function runWarmUp(script, env) {
  const child = spawn(process.execPath, ['-e', script], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const timer = setTimeout(() => {
    process.stderr.write(`build-cli: a warm-up did not end within ${WARM_UP_TIMEOUT_MS} ms; stopped\n`);
    child.kill('SIGKILL');
  }, WARM_UP_TIMEOUT_MS);
  await new Promise((done) => child.once('exit', done).once('error', done));
  clearTimeout(timer);
}

/**
 * `baton serve` of this build in a scratch data dir named `name`: its env, whether it listens, and
 * how to stop it. Its own empty HOME: the host lists the agents' folders there, never the builder's
 * (a builder's thousands of sessions would slow the build and could time a probe out).
 */
async function startScratchHost(name) {
  const env = { ...process.env, BATON_HOME: join(scratch, `${name}-home`), XDG_RUNTIME_DIR: join(scratch, `${name}-run`), HOME: join(scratch, `${name}-user`) };
  const serve = spawn(process.execPath, [join('bin', 'baton.js'), 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const listening = await hostListening(env, 30_000);
  const stop = async () => {
    const exited = new Promise((done) => serve.once('exit', done));
    serve.kill();
    await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
  };
  return { env, listening, stop };
}

/**
 * Whether `baton serve` of this build, started in a new scratch data dir, aborts (a signal it was
 * not sent, V8's "Fatal error"/"Check failed") or never listens, within its first second of
 * listening (its cold scan of an empty HOME). Not listening within 30 s counts too: the fallback,
 * a cache of the compile alone, is slower, never wrong.
 */
async function serveFirstStartAborts() {
  const env = { ...process.env, BATON_HOME: join(scratch, 'probe-serve-first-home'), XDG_RUNTIME_DIR: join(scratch, 'probe-serve-first-run'), HOME: join(scratch, 'probe-serve-first-user') };
  const serve = spawn(process.execPath, [join('bin', 'baton.js'), 'serve', '--port', '0', '--json'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  serve.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((done) => serve.once('exit', done));
  const listening = await hostListening(env, 30_000);
  if (listening) await new Promise((done) => setTimeout(done, 1_000));
  const aborted = !listening || serve.exitCode !== null || serve.signalCode !== null || /Fatal error|Check failed/.test(stderr);
  serve.kill();
  await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
  return aborted;
}

/** Whether a host answers at the scratch data dir's socket within `timeoutMs` (it is polled). */
async function hostListening(env, timeoutMs) {
  // src/core/transport/endpoint.ts: $XDG_RUNTIME_DIR/baton/baton.sock.
  const socket = join(env.XDG_RUNTIME_DIR, 'baton', 'baton.sock');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(socket)) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return false;
}

/**
 * esbuild escapes non-ASCII characters in strings, templates and identifiers but leaves them in
 * regular-expression literals (`/✗|×/i` in trim-tool-output.ts, `µs` in a nats regex). Ten such
 * bytes made the whole 1.4 MB source a two-byte string in V8: twice the memory, and reading and
 * decoding it ~3 ms slower on every handoff (bench/README.md, "Issue 20, sixth sitting"). What is
 * left is in regex literals and comments, where `\uXXXX` means the same character (a surrogate
 * pair stays one code point under the `u` flag too).
 */
function asciiOnly(source) {
  return source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Rewrites a bundle as the function bin/load-cli.js compiles (wrapBundle), ASCII only: the
 * launcher then compiles the file's string itself, with no wrapped copy of it (bundleSource; issue
 * 15, bench/README.md "Seventeenth sitting"). For the bundles only the launcher runs: the picker's
 * and the listings'. Test: scripts/launcher-wrapped.test.js.
 */
async function storeWrapped(file) {
  await writeFile(file, wrapBundle(asciiOnly(readFileSync(file, 'utf8'))));
}

/** The code cache of a bundle compiled but not run: only what V8 compiles eagerly. */
function compileOnlyCache(file) {
  return new Script(bundleSource(file), { filename: file }).createCachedData();
}
