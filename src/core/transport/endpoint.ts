import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { lstat, link, mkdir, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { TransportError, errnoOf } from './errors.js';
import type { EndpointInfo } from './types.js';

/**
 * Where the endpoint lives and the secret that guards it (ARCHITECTURE.md §6).
 *
 * Linux/macOS: a pathname Unix socket in a 0700 directory owned by us. The kernel checks the
 * directory's permissions on connect, so another uid gets EACCES before any byte moves. Never the
 * Linux abstract namespace ('\0name'): it has no permission check at all.
 * Windows: a named pipe with a random name, published in a 0600 file under the data dir, so only
 * this user can learn the name; the client also authenticates the server (see wire.ts) because a
 * pipe name can be squatted. The Windows paths cannot run on these Linux machines: they are
 * written to the same contract and exercised only by resolveEndpoint's pure branch in tests.
 */
export const SOCKET_NAME = 'baton.sock';
export const PIPE_NAME_FILE = 'pipe-name';
export const TOKEN_FILE = 'token';
export const TOKEN_BYTES = 32;
/** sun_path is 108 bytes on Linux and 104 on macOS, including the terminating NUL. */
export const MAX_SOCKET_PATH_BYTES = 103;
const PIPE_PATTERN = /^\\\\\.\\pipe\\baton-[0-9a-f]{32}$/;

function runDir(dataDir: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const runtime = env.XDG_RUNTIME_DIR;
  // XDG says a relative XDG_RUNTIME_DIR is invalid and must be ignored.
  if (platform !== 'win32' && runtime && path.isAbsolute(runtime)) return path.join(runtime, 'baton');
  return path.join(dataDir, 'run');
}

/**
 * What decides `dir`, for the hint in a refusal: setting BATON_HOME does nothing while
 * XDG_RUNTIME_DIR holds the socket, so the hint must name the variable that does.
 */
export function endpointDirHint(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (process.platform !== 'win32' && runtime && path.isAbsolute(runtime) && path.dirname(dir) === path.resolve(runtime)) {
    return `unset XDG_RUNTIME_DIR or point it at your own runtime directory (it decides where the socket lives: ${runtime}; BATON_HOME does not move it)`;
  }
  return 'set BATON_HOME to a private directory';
}

/** Reads a previously published pipe name; a missing or malformed file means "make a new one". */
function readPublishedPipe(file: string): string | null {
  try {
    const name = readFileSync(file, 'utf8').trim();
    return PIPE_PATTERN.test(name) ? name : null;
  } catch {
    return null;
  }
}

export function resolveEndpoint(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): EndpointInfo {
  const tokenPath = path.join(dataDir, TOKEN_FILE);
  if (platform === 'win32') {
    const dir = path.win32.join(dataDir, 'run');
    const published = readPublishedPipe(path.win32.join(dir, PIPE_NAME_FILE));
    const address = published ?? `\\\\.\\pipe\\baton-${randomBytes(16).toString('hex')}`;
    return { dir, address, tokenPath: path.win32.join(dataDir, TOKEN_FILE) };
  }
  const dir = runDir(dataDir, env, platform);
  return { dir, address: path.join(dir, SOCKET_NAME), tokenPath };
}

/** The file a Windows server writes its pipe name to (clients read it through resolveEndpoint). */
export function pipeNameFile(endpoint: EndpointInfo): string {
  return path.win32.join(endpoint.dir, PIPE_NAME_FILE);
}

function unsafe(target: string, message: string): TransportError {
  return new TransportError('UNSAFE_ENDPOINT', message, target);
}

/**
 * Creates `dir` private (0700, parents too) and refuses to use it unless it is a real directory,
 * owned by us, with no group/other bits. Refusing beats repairing: a directory we did not make
 * private may already hold someone else's socket.
 */
export async function ensureEndpointDir(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // mode 0700 is masked by the umask, so the result is 0700 or stricter whatever the umask; we
  // do not call process.umask() (process-wide, and refused in worker threads).
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') {
      throw new TransportError('IO_ERROR', `cannot create the endpoint directory ${dir}: ${String(error)}`, dir, { cause: error });
    }
  }
  const stat = await lstat(dir);
  if (stat.isSymbolicLink()) {
    throw unsafe(dir, `the endpoint directory ${dir} is a symbolic link; remove it (rm ${dir}) so Baton can create a private directory`);
  }
  if (!stat.isDirectory()) {
    throw unsafe(dir, `the endpoint directory ${dir} is not a directory; move it away so Baton can create one`);
  }
  if (process.platform === 'win32') return; // NTFS ACLs, not mode bits: the per-user data dir is private.
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw unsafe(dir, `the endpoint directory ${dir} belongs to uid ${stat.uid}, not to you (uid ${process.getuid()}); remove it, or ${endpointDirHint(dir, env)}`);
  }
  if ((stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8);
    throw unsafe(dir, `the endpoint directory ${dir} has mode ${mode}, readable by others; run: chmod 700 ${dir}`);
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// O_NOFOLLOW: a symlink planted at the token path is refused (ELOOP), not followed.
const TOKEN_OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** Refuses a token file that is not a private regular file of ours holding TOKEN_BYTES. */
function checkTokenFile(stat: Stats, tokenPath: string): void {
  if (!stat.isFile()) throw new TransportError('BAD_TOKEN', `the token ${tokenPath} is not a regular file; remove it and restart Baton`, tokenPath);
  if (process.platform !== 'win32') {
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
      throw new TransportError('BAD_TOKEN', `the token ${tokenPath} belongs to uid ${stat.uid}, not to you; remove it and restart Baton`, tokenPath);
    }
    if ((stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8);
      throw new TransportError('BAD_TOKEN', `the token ${tokenPath} has mode ${mode}, readable by others; remove it (a new one is made) or run: chmod 600 ${tokenPath}`, tokenPath);
    }
  }
  if (stat.size !== TOKEN_BYTES) {
    throw new TransportError('BAD_TOKEN', `the token ${tokenPath} is ${stat.size} bytes, expected ${TOKEN_BYTES}; remove it and restart Baton`, tokenPath);
  }
}

function symlinkedToken(tokenPath: string): TransportError {
  return new TransportError('BAD_TOKEN', `the token ${tokenPath} is a symbolic link; remove it and restart Baton`, tokenPath);
}

function checkTokenRead(bytesRead: number, tokenPath: string): void {
  if (bytesRead !== TOKEN_BYTES) throw new TransportError('BAD_TOKEN', `the token ${tokenPath} could not be read whole`, tokenPath);
}

async function readToken(tokenPath: string): Promise<Buffer> {
  const handle = await open(tokenPath, TOKEN_OPEN_FLAGS);
  try {
    checkTokenFile(await handle.stat(), tokenPath);
    const token = Buffer.alloc(TOKEN_BYTES);
    checkTokenRead((await handle.read(token, 0, TOKEN_BYTES, 0)).bytesRead, tokenPath);
    return token;
  } finally {
    await handle.close();
  }
}

/**
 * The token when it is there, read with the same checks and synchronously; null when there is
 * none (loadOrCreateToken makes it). For a client asking a running host (which made the token):
 * `baton list --json` through a host then never starts the thread pool, whose four round trips
 * here (open, stat, read, close) took 2.5-5 ms of a ~30 ms listing (bench/README.md, issue 15
 * eleventh sitting).
 */
export function readExistingTokenSync(tokenPath: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(tokenPath, TOKEN_OPEN_FLAGS);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return null;
    if (errnoOf(error) === 'ELOOP') throw symlinkedToken(tokenPath);
    throw error;
  }
  try {
    checkTokenFile(fstatSync(fd), tokenPath);
    const token = Buffer.alloc(TOKEN_BYTES);
    checkTokenRead(readSync(fd, token, 0, TOKEN_BYTES, 0), tokenPath);
    return token;
  } finally {
    closeSync(fd);
  }
}

/**
 * The 32-byte shared secret: read it, or make it on first run. The new token is written and
 * fsynced under a private temp name opened with O_EXCL, then hard-linked into place: link() fails
 * with EEXIST if another process won the race, and no reader ever sees a half-written token.
 */
export async function loadOrCreateToken(tokenPath: string): Promise<Buffer> {
  try {
    return await readToken(tokenPath);
  } catch (error) {
    if (errnoOf(error) === 'ELOOP') throw symlinkedToken(tokenPath);
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
  const dir = path.dirname(tokenPath);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${tokenPath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  const token = randomBytes(TOKEN_BYTES);
  try {
    await handle.writeFile(token);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temp, tokenPath);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw error;
    await unlink(temp);
    return readToken(tokenPath); // another process made it first: everyone uses theirs
  }
  await unlink(temp);
  await fsyncDir(dir);
  return token;
}

/**
 * Windows only: publish the pipe name in a 0600 file so only this user can find the pipe. A restart
 * reuses the published name (resolveEndpoint reads it), so rewriting it in place is enough.
 * Not runnable here (Linux); kept small and obvious for that reason.
 */
export async function publishPipeName(endpoint: EndpointInfo): Promise<void> {
  const file = pipeNameFile(endpoint);
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile(`${endpoint.address}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
