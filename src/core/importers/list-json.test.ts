import { spawn } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListGroup } from './candidate-list.js';
import { groupCloseText, groupOpenText, LIST_JSON_CHUNK_BYTES, writeListJson, type JsonSink } from './list-json.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-lj-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `groupCount` groups of `rows` rows (titles with quotes, accents and emoji); every third group pre-rendered, as the candidate index stores them. */
function groupsOf(groupCount: number, rows: number): ListGroup[] {
  return Array.from({ length: groupCount }, (_, g) => {
    const cwd = `/w/${g} "é"`;
    const items = Array.from({ length: rows }, (_, i) => {
      const filler = (g * 37 + i * 11) % 400;
      const row = { id: `s-${g}-${i}`, title: `title ${i} "q" é 中 😀 ${'x'.repeat(filler)}` };
      return { cwd, at: rows - i, id: row.id, source: 'claude', text: () => JSON.stringify(row), row: () => row as never };
    });
    const rendered = () => [Buffer.from(`${groupOpenText(cwd)}${items.map((item) => item.text()).join(',')}${groupCloseText(rows)}`)];
    return { cwd, newestAt: rows, items, ...(g % 3 === 2 ? { rendered } : {}) };
  });
}

const HEAD = { version: 1, command: 'list', ok: true };

/** The document as written to a sink that keeps a copy of every chunk. */
async function documentOf(groups: ListGroup[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await writeListJson({ write: (c) => chunks.push(Buffer.from(c)) > 0, once: () => undefined }, HEAD, groups, { total: 1 });
  return Buffer.concat(chunks);
}

/** The same groups with each pre-rendered group handed over in parts cut at `cuts` (fractions), as a sealed index's opened pieces are. */
function inParts(groups: ListGroup[], cuts: number[]): ListGroup[] {
  return groups.map((g) => {
    if (!g.rendered) return g;
    const whole = Buffer.concat(g.rendered());
    const at = [0, ...cuts.map((c) => Math.floor(whole.length * c)), whole.length];
    const parts = at.slice(1).map((end, i) => whole.subarray(at[i], end));
    return { ...g, rendered: () => parts };
  });
}

describe('writeListJson', () => {
  it('writes a pre-rendered group given in parts (views of opened pieces, cut anywhere, even inside a character) as the same document', async () => {
    const groups = groupsOf(9, 300);
    const expected = await documentOf(groups);
    for (const cuts of [[0.5], [0, 0.001, 0.3333, 0.3334, 1], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]]) {
      const written: Buffer[] = [];
      const given = new Set<Buffer>();
      const sink: JsonSink = { write: (c) => (given.add(c), written.push(Buffer.from(c)) > 0), once: () => undefined };
      const inPieces = inParts(groups, cuts);
      await writeListJson(sink, HEAD, inPieces, { total: 1 });
      expect(Buffer.concat(written).equals(expected)).toBe(true);
      // Each non-empty part is handed to the sink itself, not joined or copied first.
      const parts = inPieces.flatMap((g) => (g.rendered ? g.rendered() : [])).filter((p) => p.length > 0);
      expect(parts.length, "3 pre-rendered groups, each in 2 parts or more").toBeGreaterThanOrEqual(6);
      for (const part of parts) expect(given.has(part)).toBe(true);
    }
  });

  it('fills one chunk again for a sink that has written each chunk when write() returns (stdout to a file), into a real file', async () => {
    const groups = groupsOf(12, 400);
    const expected = await documentOf(groups);
    expect(expected.length).toBeGreaterThan(10 * LIST_JSON_CHUNK_BYTES);
    const file = join(dir, 'out.json');
    const fd = openSync(file, 'w');
    const chunkMemory = new Set<ArrayBufferLike>();
    // As Node's stdout to a file: a synchronous write, nothing pending after it.
    const sink: JsonSink = {
      writableLength: 0,
      write(chunk) {
        // The pre-rendered groups (~100 KB) are larger than a chunk: their own buffers.
        if (chunk.length <= LIST_JSON_CHUNK_BYTES) chunkMemory.add(chunk.buffer);
        writeSync(fd, chunk);
        return true;
      },
      once: () => undefined,
    };
    await writeListJson(sink, HEAD, groups, { total: 1 });
    closeSync(fd);
    expect((await readFile(file)).equals(expected)).toBe(true);
    expect(chunkMemory.size).toBe(1);
  });

  it('never fills a chunk a sink still holds: a stream whose writes complete later (a pipe: it writes from the buffer it was given)', async () => {
    const groups = groupsOf(12, 400);
    const expected = await documentOf(groups);
    // Holds the chunks it is given (no copy) and writes them out only when it asks for a drain,
    // past 1 MB held: a Writable with a high water mark of 1 MB.
    const held: Buffer[] = [];
    const out: Buffer[] = [];
    let heldBytes = 0;
    let pendingAfterWrite = 0;
    const sink: JsonSink = {
      get writableLength() {
        return heldBytes;
      },
      write(chunk) {
        held.push(chunk);
        heldBytes += chunk.length;
        pendingAfterWrite += 1;
        return heldBytes < 1024 * 1024;
      },
      once(_event, listener) {
        setImmediate(() => {
          out.push(...held.map((c) => Buffer.from(c)));
          held.length = 0;
          heldBytes = 0;
          listener();
        });
      },
    };
    await writeListJson(sink, HEAD, groups, { total: 1 });
    out.push(...held.map((c) => Buffer.from(c)));
    expect(pendingAfterWrite).toBeGreaterThan(10);
    expect(Buffer.concat(out).equals(expected)).toBe(true);
  });

  it('writes the same bytes through a real pipe to a slow reader (its writes complete later, from the chunk they were given)', async () => {
    const groups = groupsOf(30, 400);
    const expected = await documentOf(groups);
    const file = join(dir, 'piped.json');
    // 2 ms between reads: the pipe stays full, and the writer's writes wait in libuv with their buffers.
    const slowCopy = 'const out = require("fs").createWriteStream(process.argv[1]); process.stdin.on("data", (c) => { out.write(c); process.stdin.pause(); setTimeout(() => process.stdin.resume(), 2); }).on("end", () => out.end());';
    const reader = spawn(process.execPath, ['-e', slowCopy, file], { stdio: ['pipe', 'ignore', 'inherit'] });
    const exited = new Promise<number | null>((done) => reader.on('exit', done));
    const pipe = reader.stdin;
    let heldAndFlowing = 0;
    // The pipe with a 1 MB high water mark (a stream's own is 16 KB, less than a chunk): write()
    // says go on while earlier chunks are still queued, so the writer goes on with its chunk.
    const sink: JsonSink = {
      get writableLength() {
        return pipe.writableLength;
      },
      write(chunk) {
        pipe.write(chunk);
        const flowing = pipe.writableLength < 1024 * 1024;
        if (flowing && pipe.writableLength > 0) heldAndFlowing += 1;
        return flowing;
      },
      once: (event, listener) => pipe.once(event, listener),
    };
    await writeListJson(sink, HEAD, groups, { total: 1 });
    pipe.end();
    expect(await exited).toBe(0);
    expect(heldAndFlowing).toBeGreaterThan(0);
    expect((await readFile(file)).equals(expected)).toBe(true);
  });
});
