// Whether a host's socket is there, for the launcher to decide before it compiles a bundle that
// asks a host (bin/baton.js: the hosted picker's, the fast listing's). The path is src/core/transport/endpoint.ts's
// resolveEndpoint(resolveDataDir()) (src/core/paths.ts), restated here because the launcher runs
// before any bundle: compiling the picker's bundle only to find no socket cost a picker without a
// host ~1.5 ms (bench/README.md, "Fifteenth sitting"). scripts/host-socket.test.js holds the two
// to the same path. CommonJS (bin/package.json), like the launcher.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

/** The host's Unix socket path, or null on Windows (a named pipe: the bundle resolves it). */
function hostSocketPath(env = process.env, platform = process.platform) {
  if (platform === 'win32') return null;
  const runtime = env.XDG_RUNTIME_DIR;
  // XDG says a relative XDG_RUNTIME_DIR is invalid and must be ignored.
  if (runtime && path.isAbsolute(runtime)) return path.join(runtime, 'baton', 'baton.sock');
  return path.join(dataDir(env, platform), 'run', 'baton.sock');
}

function dataDir(env, platform) {
  if (env.BATON_HOME) return env.BATON_HOME;
  const home = env.HOME || require('node:os').homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Baton');
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'baton');
}

/** False only when there is certainly no host to ask (no socket file); true on Windows. */
function hostMayRun(env = process.env, platform = process.platform) {
  const socket = hostSocketPath(env, platform);
  return socket === null || existsSync(socket);
}

/**
 * False only when the data directory certainly holds no encryption.json (an unencrypted or new
 * store), for `baton list` without a host: its keychain read need not start early, so the
 * fast-list bundle need not be compiled for it. True on Windows (its data directory is the
 * bundle's to resolve).
 */
function storeMayBeEncrypted(env = process.env, platform = process.platform) {
  if (platform === 'win32') return true;
  return existsSync(path.join(dataDir(env, platform), 'encryption.json'));
}

exports.hostSocketPath = hostSocketPath;
exports.storeMayBeEncrypted = storeMayBeEncrypted;
exports.dataDir = dataDir;
exports.hostMayRun = hostMayRun;
