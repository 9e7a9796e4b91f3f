import type { DurableFs } from './durable-fs.js';

/**
 * A DurableFs that answers with `overrides` where given and hands every other call to `inner`,
 * bound to it. Written out method by method, not `{ ...inner }`: a spread copies only own
 * properties, so a class-based DurableFs (the tests' fault injectors) would lose its methods.
 */
export function delegatingFs(inner: DurableFs, overrides: Partial<DurableFs>): DurableFs {
  return {
    open: (path, flags, mode) => inner.open(path, flags, mode),
    readFile: (path) => inner.readFile(path),
    rename: (from, to) => inner.rename(from, to),
    link: (existing, to) => inner.link(existing, to),
    unlink: (path) => inner.unlink(path),
    mkdir: (path, mode) => inner.mkdir(path, mode),
    readdir: (path) => inner.readdir(path),
    stat: (path) => inner.stat(path),
    lstat: (path) => inner.lstat(path),
    chmod: (path, mode) => inner.chmod(path, mode),
    fsyncDir: (path) => inner.fsyncDir(path),
    removeTree: (path) => inner.removeTree(path),
    existsSync: (path) => inner.existsSync(path),
    ...overrides,
  };
}
