import { appendFile, readdir, readFile, rename, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { candidateIndexFileFor } from '../candidate-index.js';
import { countItems, type ListGroup } from '../candidate-list.js';
import { writeListJson } from '../list-json.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from './build-logs.js';

/**
 * Generated corpora for the listing tests (no-host index listings, hosted listings): a fake HOME
 * with Claude Code and Codex logs, and the changes a person's tools make between two listings.
 */
export const HOUR_AGO_S = () => Date.now() / 1000 - 3600;

export async function ageFolders(home: string): Promise<void> {
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) await walk(join(dir, e.name));
    await utimes(dir, HOUR_AGO_S(), HOUR_AGO_S()).catch(() => undefined);
  };
  await walk(join(home, '.claude'));
  await walk(join(home, '.codex'));
}

export async function render(groups: readonly ListGroup[]): Promise<string> {
  const chunks: Buffer[] = [];
  await writeListJson({ write: (c) => (chunks.push(Buffer.from(c)), true), once: () => undefined }, { version: 1 }, groups, { total: countItems(groups) });
  return Buffer.concat(chunks).toString('utf8');
}

/** One corpus: a fake HOME with Claude Code and Codex logs, and the data dir whose index is under test. */
export class Corpus {
  readonly files: string[] = [];
  private n = 0;
  constructor(
    readonly home: string,
    readonly random: () => number,
  ) {}
  get env(): NodeJS.ProcessEnv {
    return { HOME: this.home };
  }
  get cacheFile(): string {
    return join(this.home, 'data', 'importers-cache.json');
  }
  async add(): Promise<void> {
    const i = this.n++;
    const r = this.random();
    const cwd = ['/home/dev/a', '/home/dev/a/', '/home/dev/b', '/srv/ünï'][Math.floor(this.random() * 4)]!;
    const at = Date.UTC(2026, 10, 1) + Math.floor(this.random() * 5) * 60_000;
    let path: string;
    if (r < 0.55) {
      const id = `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const lines: unknown[] = [claude.user({ uuid: `${id}-u`, cwd, sessionId: id, timestamp: new Date(at).toISOString() }, `prompt ${i}`)];
      if (this.random() < 0.8) lines.push(claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd, sessionId: id, timestamp: new Date(at + 1000).toISOString() }, `${id}-m`, claude.text('ok')));
      if (this.random() < 0.1) lines.push('{"type":"user","torn');
      path = await writeLog(claudeLogPath(this.home, cwd, id), this.random() < 0.08 ? [claude.summary('leaf')] : lines);
    } else {
      const id = `019a0000-aaaa-7bbb-8ccc-${String(i).padStart(12, '0')}`;
      path = await writeLog(codexLogPath(join(this.home, '.codex'), id, ['2026/11/01', '2026/11/02'][i % 2]), [codex.meta(id, cwd), codex.turnContext(), codex.message('user', `codex ${i}`), codex.message('assistant', 'ok')]);
    }
    await utimes(path, at / 1000, at / 1000);
    this.files.push(path);
  }
  pick(): string | undefined {
    return this.files[Math.floor(this.random() * this.files.length)];
  }
  /** One change a person's tools make between two listings. */
  async mutate(): Promise<string> {
    const r = this.random();
    const path = this.pick();
    if (r < 0.3 || !path) return (await this.add(), 'added');
    if (r < 0.5) {
      await appendFile(path, JSON.stringify(claude.user({ uuid: `late-${this.n++}`, cwd: '/home/dev/b' }, 'later')) + '\n');
      return 'grown';
    }
    if (r < 0.6) {
      await rm(path);
      this.files.splice(this.files.indexOf(path), 1);
      return 'deleted';
    }
    if (r < 0.7) {
      const to = path.replace(/(\d{12})\.jsonl$/, (_, d: string) => `${String(Number(d) + 500_000).padStart(12, '0')}.jsonl`);
      await rename(path, to);
      this.files[this.files.indexOf(path)] = to;
      return 'renamed';
    }
    if (r < 0.8) {
      const past = HOUR_AGO_S() - this.random() * 1e6;
      await utimes(path, past, past);
      return 'mtime in the past';
    }
    if (r < 0.85) {
      await truncate(path, 0);
      return 'emptied';
    }
    const index = candidateIndexFileFor(this.cacheFile);
    const bytes = await readFile(index).catch(() => null);
    if (!bytes) return 'no index';
    if (r < 0.93) {
      const at = Math.floor(this.random() * bytes.length);
      bytes[at] = bytes[at]! ^ 0x41;
      await writeFile(index, bytes);
      return 'index damaged';
    }
    bytes.write('BTNCIDX1', 0, 'latin1'); // an index of the previous format
    await writeFile(index, bytes);
    return 'index of an older version';
  }
}
