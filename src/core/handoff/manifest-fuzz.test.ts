import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Manifest } from '../../shared/manifest.js';
import { createReceiver } from './receiver.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';
import type { Manifest as ManifestType } from '../../shared/manifest.js';

/**
 * The receiver under hostile manifests; the transport's own fuzzers cover frames and URLs.
 * Properties: a valid manifest is accepted; every mutation that breaks the schema is rejected as
 * INVALID_MANIFEST naming the broken field; a rejection changes nothing in the data directory.
 */
const RUNS = 20_000;
const connection = { signal: new AbortController().signal };
let fixture: HandoffFixture;
let valid: ManifestType;
let sessionId: string;

beforeAll(async () => {
  fixture = await createHandoffFixture();
  ({ manifest: valid, sessionId } = await fixture.landed(2));
});
afterAll(() => fixture.dispose());

const receiver = () => createReceiver({ store: fixture.store, capabilities: ['conversation'], holder: 'desktop' });
const offer = (manifest: unknown) => receiver()({ id: 'f', method: 'handoff.offer', params: { manifest } }, connection);

/** Every file and folder under the data directory, with each file's sha256: what a rejection must not change. */
async function dataDirState(dir: string): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        state[`${relative(dir, full)}/`] = 'dir';
        await walk(full);
      } else state[relative(dir, full)] = createHash('sha256').update(await readFile(full)).digest('hex');
    }
  };
  await walk(dir);
  return state;
}

type Path = (string | number)[];
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every node of a JSON value with its path (the root excluded). */
function nodes(value: Json, path: Path = []): { path: Path; value: Json }[] {
  const here = path.length ? [{ path, value }] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => nodes(v, [...path, i]))];
  if (value && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([k, v]) => nodes(v, [...path, k]))];
  return here;
}

function withReplaced(root: Json, path: Path, replacement: Json | undefined): Json {
  const copy = structuredClone(root) as Record<string | number, Json>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  if (replacement === undefined) delete node[last];
  else node[last] = replacement;
  return copy as Json;
}

/** Values of a type the schema never accepts where `original` stands (nullable fields accept null, so never null for them). */
function breakingReplacements(original: Json): Json[] {
  if (original === null) return [true, [1]];
  if (typeof original === 'string') return [42, true, [], {}];
  if (typeof original === 'number') return ['1', true, 1.5, []];
  if (typeof original === 'boolean') return ['true', 0, null, []];
  if (Array.isArray(original)) return [{}, 'x', 0, null];
  return [[], 'x', 0];
}
/** Fields whose strings have a format: a well-typed but malformed string must be refused too. */
const FORMATTED = new Set(['protocol_version', 'handoff_id', 'session_id', 'messages_sha256', 'tool_calls_sha256', 'diff_sha256', 'rules_sha256']);
/** The optional keys of the schema (src/shared/manifest.ts); every other key is required. */
const OPTIONAL_KEYS = new Set(['title', 'token_estimate_method', 'compacted_summary_sha256', 'settings_sha256']);

/** A schema-valid manifest that also fills the nullable branches (git, a background task, a model). */
function richManifest(): Json {
  const rich = structuredClone(valid) as unknown as Record<string, Json>;
  rich.workspace = {
    root: '/w',
    git: { remote: 'git@example.com:a/b.git', branch: 'main', head: 'a'.repeat(40), dirty_files: ['a.ts'], untracked_files: ['b.ts'], diff_sha256: 'b'.repeat(64), patch_ref: 'patch.diff' },
    requires_rehydration: true,
  };
  rich.background_tasks = [{ id: 't1', kind: 'dev-server', command: 'npm run dev', port: 5173, pid: 42, log_ref: 'tasks/t1.log', lease_expires_at: '2026-11-30T12:00:00Z', recoverable: true }];
  rich.model = { name: 'm', settings_ref: null, settings_sha256: 'd'.repeat(64) };
  rich.parent_session_id = 's-parent';
  rich.permission_state = { mode: 'default', rules_sha256: 'c'.repeat(64) };
  return rich as Json;
}

/** Every single-point mutation that breaks the schema: wrong types everywhere, malformed formats, required keys removed. */
function breakingMutations(root: Json): { path: Path; replacement: Json | undefined }[] {
  const out: { path: Path; replacement: Json | undefined }[] = [];
  for (const { path, value } of nodes(root)) {
    for (const replacement of breakingReplacements(value)) out.push({ path, replacement });
    if (typeof value === 'string' && FORMATTED.has(String(path.at(-1)))) out.push({ path, replacement: 'not/a valid..value' });
    if (typeof path.at(-1) === 'string' && !OPTIONAL_KEYS.has(String(path.at(-1)))) out.push({ path, replacement: undefined });
  }
  return out;
}

async function expectRejectedNaming(manifest: Json, path: Path): Promise<void> {
  const answer = await offer(manifest);
  expect(answer, `mutation at ${path.join('.')}`).toMatchObject({ ok: false, status: 'rejected', code: 'INVALID_MANIFEST' });
  expect(String(answer.message), `mutation at ${path.join('.')}`).toContain(`${path.join('.')}: `);
}

describe('manifest parsing under hostile input', () => {
  it('every single-point mutation that breaks the schema is rejected, naming the field, and nothing on disk changes', async () => {
    const rich = richManifest();
    expect(Manifest.safeParse(rich).success).toBe(true);
    const mutations = breakingMutations(rich);
    expect(mutations.length).toBeGreaterThan(200);
    const before = await dataDirState(fixture.dataDir);
    for (const { path, replacement } of mutations) {
      const mutated = withReplaced(rich, path, replacement);
      expect(Manifest.safeParse(mutated).success, `schema accepted a breaking mutation at ${path.join('.')}`).toBe(false);
      await expectRejectedNaming(mutated, path);
    }
    expect(await dataDirState(fixture.dataDir)).toEqual(before);
  });

  it('two or three breaking mutations at once: rejected, each field named (2,000 runs), nothing on disk changes', async () => {
    const rich = richManifest();
    // Top-level fields only, so the mutations cannot hide one another (a replaced parent hides its children).
    const topLevel = breakingMutations(rich).filter((m) => m.path.length === 1);
    const before = await dataDirState(fixture.dataDir);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...topLevel), { minLength: 2, maxLength: 3, selector: (m) => m.path[0] }), async (picked) => {
        const mutated = picked.reduce((m, { path, replacement }) => withReplaced(m, path, replacement), rich);
        const answer = await offer(mutated);
        // protocol_version with a newer major is refused for its version before the schema runs: never here (wrong types only).
        expect(answer).toMatchObject({ ok: false, code: 'INVALID_MANIFEST' });
        for (const { path } of picked) expect(String(answer.message)).toContain(`${path.join('.')}: `);
      }),
      { numRuns: 2_000 },
    );
    expect(await dataDirState(fixture.dataDir)).toEqual(before);
  });

  it(`arbitrary JSON is rejected with INVALID_MANIFEST, or UPGRADE_REQUIRED exactly for a newer major (${RUNS} runs), nothing on disk changes`, async () => {
    const before = await dataDirState(fixture.dataDir);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        const answer = await offer(value);
        const version = (value as { protocol_version?: unknown } | null)?.protocol_version;
        const newer = typeof version === 'string' && Number.parseInt(version.split('.')[0] ?? '', 10) > 1;
        expect(answer).toMatchObject({ ok: false, status: 'rejected', code: newer ? 'UPGRADE_REQUIRED' : 'INVALID_MANIFEST' });
      }),
      { numRuns: RUNS },
    );
    expect(await dataDirState(fixture.dataDir)).toEqual(before);
  });

  it('a newer major protocol is refused naming both versions, before the schema, and nothing changes', async () => {
    const before = await dataDirState(fixture.dataDir);
    const answer = await offer({ ...valid, protocol_version: '2.0', context: 'not even an object' });
    expect(answer).toMatchObject({ ok: false, code: 'UPGRADE_REQUIRED' });
    expect(String(answer.message)).toMatch(/protocol 2\.0.*1\.x/);
    expect(await dataDirState(fixture.dataDir)).toEqual(before);
  });

  it('one field replaced by anything: the receiver agrees with the schema and never answers INTERNAL (3,000 runs)', async () => {
    const keys = Object.keys(valid);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...keys), fc.anything({ maxDepth: 3 }), async (key, replacement) => {
        const mutated = { ...valid, [key]: replacement, handoff_id: `fuzz-${Math.random().toString(36).slice(2)}` };
        const schemaOk = Manifest.safeParse(mutated).success;
        const answer = await offer(mutated);
        expect(answer.code).not.toBe('INTERNAL');
        if (!schemaOk) {
          const newer = key === 'protocol_version' && typeof replacement === 'string' && Number.parseInt(replacement.split('.')[0] ?? '', 10) > 1;
          expect(answer).toMatchObject({ ok: false, code: newer ? 'UPGRADE_REQUIRED' : 'INVALID_MANIFEST' });
          if (!newer) expect(String(answer.message)).toContain(key);
        } else expect(answer.code).not.toBe('INVALID_MANIFEST');
      }),
      { numRuns: 3_000 },
    );
  });

  it('drops own __proto__ keys at every level: the parsed manifest keeps Object.prototype, and the offer hashes as the clean one', async () => {
    const fresh = await fixture.landed(2);
    const clean = fresh.manifest as unknown as Json;
    const objects = [{ path: [] as Path, value: clean }, ...nodes(clean)].filter((n) => n.value !== null && typeof n.value === 'object' && !Array.isArray(n.value));
    expect(objects.length).toBeGreaterThanOrEqual(5);
    const first = await offer(clean);
    expect(first).toMatchObject({ ok: true, status: 'accepted' });
    for (const { path } of objects) {
      // JSON.parse makes `__proto__` an own data key; that is what arrives over the socket.
      const text = JSON.stringify(clean);
      const hostile = JSON.parse(text) as Record<string, Json>;
      let node = hostile as Record<string | number, Json>;
      for (const key of path) node = node[key] as Record<string | number, Json>;
      Object.defineProperty(node, '__proto__', { value: { polluted: true, session_id: 'other' }, enumerable: true, writable: true, configurable: true });
      expect(Object.hasOwn(node, '__proto__')).toBe(true);

      const parsed = Manifest.safeParse(hostile);
      expect(parsed.success).toBe(true);
      for (const n of [{ path: [], value: parsed.data as unknown as Json }, ...nodes(parsed.data as unknown as Json)]) {
        if (n.value === null || typeof n.value !== 'object') continue;
        expect(Object.getPrototypeOf(n.value), `at ${n.path.join('.')}`).toBe(Array.isArray(n.value) ? Array.prototype : Object.prototype);
        expect('polluted' in n.value, `at ${n.path.join('.')}`).toBe(false);
      }
      // Same handoff id, same payload hash once the key is dropped: a duplicate, not a CONFLICT.
      expect(await offer(hostile), `__proto__ at ${path.join('.') || '(root)'}`).toMatchObject({ ok: true, status: 'duplicate', firstStatus: 'accepted' });
    }
  });

  it('accepts the valid manifest: the baton moves to the desktop once, and a replay is a duplicate', async () => {
    const before = await fixture.store.getSession(sessionId);
    const answer = await offer(valid);
    expect(answer).toMatchObject({ ok: true, status: 'accepted', handoffId: valid.handoff_id, sessionId, epoch: before.holder.epoch + 1 });
    const after = await fixture.store.getSession(sessionId);
    expect(after.holder).toMatchObject({ who: 'desktop', epoch: before.holder.epoch + 1, handoffId: valid.handoff_id });
    expect(await offer(valid)).toMatchObject({ ok: true, status: 'duplicate', epoch: before.holder.epoch + 1 });
    expect((await fixture.store.getSession(sessionId)).holder.epoch).toBe(before.holder.epoch + 1);
  });
});
