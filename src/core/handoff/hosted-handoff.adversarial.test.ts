import fc from 'fast-check';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { connectEndpoint } from '../transport/client.js';
import { RawPeer } from '../transport/test-support/raw-peer.js';
import type { EndpointClient } from '../transport/types.js';
import { newId } from '../../shared/ids.js';
import { HOSTED_HANDOFF_MAX_BYTES, HOSTED_HANDOFF_METHOD, HOSTED_HANDOFF_PART_BYTES, parseHostedHandoffRequest } from './hosted-handoff-request.js';
import { HOSTED_HANDOFF_PENDING_MAX } from './hosted-handoff.js';
import { landAndReadBack } from './send.js';

/**
 * Hundreds of hostile `handoff.land` requests at a real host over its real socket: wrong types,
 * oversize, bad and traversing ids, relative / missing / non-directory / NUL cwds, parts out of
 * order or from another connection, unauthenticated peers and `baton ssh` credentials. Each is
 * refused with a code and a message naming the field, nothing lands, and the host still takes a
 * good request afterwards.
 */
let root: string;
let work: string;
let host: HostServices;
let client: EndpointClient;
const savedRuntime = process.env.XDG_RUNTIME_DIR;

beforeAll(async () => {
  delete process.env.XDG_RUNTIME_DIR;
  root = await mkdtemp(join(tmpdir(), 'baton-hosted-adv-'));
  work = join(root, 'work');
  await mkdir(work);
  await writeFile(join(root, 'a-file'), 'not a directory');
  await symlink(join(root, 'nowhere'), join(root, 'dangling'));
  host = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  client = await connectEndpoint({ endpoint: host.endpoint, token: host.token });
});
afterAll(async () => {
  client?.close();
  await host?.close();
  await rm(root, { recursive: true, force: true });
  if (savedRuntime !== undefined) process.env.XDG_RUNTIME_DIR = savedRuntime;
});

const sessions = async () => (await readdir(join(root, 'data', 'sessions')).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
const line = Buffer.from('{"role":"user","content":"hello"}\n');
const good = (over: Record<string, unknown> = {}) => ({ sessionId: newId('s-'), cwd: work, source: 'm.jsonl', bytes: line.length, parts: 1, part: 0, data: line.toString('base64'), ...over });

/** Requests each wrong in one field, by name: what the host must say. */
function corpus(): { name: string; params: unknown; says: RegExp }[] {
  const wrongTypes = [null, 1, -1, 1.5, true, [], {}, '', 'x'.repeat(5000), NaN];
  const cases: { name: string; params: unknown; says: RegExp }[] = [];
  // (No params at all is the wire's own BAD_REQUEST, before any method.)
  for (const params of [null, 1, 'text', [], [good()]]) cases.push({ name: `params ${JSON.stringify(params)}`, params, says: /params must be an object/ });
  for (const field of ['sessionId', 'cwd', 'source', 'bytes', 'parts', 'part', 'data']) {
    for (const value of wrongTypes.filter((v) => v !== good()[field as 'parts'])) cases.push({ name: `${field}=${JSON.stringify(value)?.slice(0, 20)}`, params: good({ [field]: value }), says: new RegExp(field === 'data' ? 'data|part 0' : field) });
    cases.push({ name: `${field} missing`, params: good({ [field]: undefined }), says: new RegExp(field) });
  }
  for (const id of ['../etc', '..', '.', '-rf', 'a/b', 'a\\b', 's-\u0000', ' s', 's\n', 'x'.repeat(129), '%2e%2e', '/abs']) cases.push({ name: `sessionId ${JSON.stringify(id)}`, params: good({ sessionId: id }), says: /sessionId/ });
  for (const cwd of ['relative/dir', './work', '../..', '~', 'C:\\Users', `${work}\u0000/x`, `/${'d'.repeat(5000)}`]) cases.push({ name: `cwd ${JSON.stringify(cwd.slice(0, 30))}`, params: good({ cwd }), says: /cwd/ });
  for (const cwd of [join(root, 'missing'), join(root, 'a-file'), join(root, 'dangling'), join(work, '..', 'a-file'), '/proc/self/fd/0/x']) cases.push({ name: `cwd ${cwd}`, params: good({ cwd }), says: /cwd .*(not a directory|cannot be read)/ });
  for (const title of [1, null, {}, 't'.repeat(5000), 'a\u0000b']) cases.push({ name: `title ${JSON.stringify(title)?.slice(0, 20)}`, params: good({ title }), says: /title/ });
  for (const source of ['', 'a\u0000b', 's'.repeat(5000)]) cases.push({ name: `source ${source.length}`, params: good({ source }), says: /source/ });
  // Sizes that disagree, or over the limit.
  cases.push({ name: 'bytes over the limit', params: good({ bytes: HOSTED_HANDOFF_MAX_BYTES + 1 }), says: /bytes must be an integer from 0 to/ });
  cases.push({ name: 'bytes larger than data', params: good({ bytes: line.length + 1 }), says: /must hold/ });
  cases.push({ name: 'bytes smaller than data', params: good({ bytes: line.length - 1 }), says: /must hold/ });
  cases.push({ name: 'parts disagree with bytes', params: good({ parts: 2 }), says: /parts must be 1/ });
  cases.push({ name: 'part past the end', params: good({ part: 1 }), says: /part must be an integer from 0 to 0/ });
  cases.push({ name: 'data not base64', params: good({ data: '!!!!' }), says: /data must be base64/ });
  cases.push({ name: 'data with padding inside', params: good({ data: 'QQ==QQ==' }), says: /data must be base64/ });
  const big = HOSTED_HANDOFF_PART_BYTES + 10;
  cases.push({ name: 'a later part without its first', params: good({ bytes: big, parts: 2, part: 1, data: Buffer.alloc(10).toString('base64') }), says: /must follow parts 0 to 0/ });
  return cases;
}

describe('handoff.land under hostile requests', () => {
  it('refuses each request of the corpus with BAD_REQUEST and a message naming the field; nothing lands', async () => {
    const cases = corpus();
    expect(cases.length).toBeGreaterThan(120);
    for (const { name, params, says } of cases) {
      const answer = await client.request(HOSTED_HANDOFF_METHOD, params);
      expect(answer, name).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
      expect(String(answer.message), name).toMatch(says);
      expect(String(answer.message), name).toMatch(/^handoff\.land: /);
    }
    expect(await sessions()).toEqual([]);
  });

  it('never throws on random params, and accepts only well-formed ones (property)', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.base64String(), fc.array(fc.integer(), { maxLength: 3 }));
    const params = fc.record(
      { sessionId: fc.oneof(value, fc.constant('s-1')), cwd: fc.oneof(value, fc.constant(work)), source: value, bytes: value, parts: value, part: value, data: value, title: value },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(params, value), (p) => {
        const parsed = parseHostedHandoffRequest(p);
        if (parsed.ok) {
          expect(parsed.request.data.length).toBeLessThanOrEqual(HOSTED_HANDOFF_PART_BYTES);
          expect(parsed.request.cwd.startsWith('/')).toBe(true);
        } else expect(parsed.message).toMatch(/^handoff\.land: /);
      }),
      { numRuns: 500 },
    );
  });

  it('parts must follow in order on one connection, and only so many requests may be arriving at once', async () => {
    const bytes = HOSTED_HANDOFF_PART_BYTES + 5;
    const part = (sessionId: string, n: number) => ({ sessionId, cwd: work, source: 'm', bytes, parts: 2, part: n, data: Buffer.alloc(n === 0 ? HOSTED_HANDOFF_PART_BYTES : 5, 0x20).toString('base64') });
    const id = newId('s-');
    expect(await client.request(HOSTED_HANDOFF_METHOD, part(id, 0))).toMatchObject({ ok: true, part: 0 });
    // The second part from another connection: refused, the first stays this connection's.
    const other = await connectEndpoint({ endpoint: host.endpoint, token: host.token });
    try {
      expect(await other.request(HOSTED_HANDOFF_METHOD, part(id, 1))).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
      // Fields that change between parts: refused, and what was held is dropped.
      expect(await client.request(HOSTED_HANDOFF_METHOD, { ...part(id, 1), title: 'changed' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
      expect(await client.request(HOSTED_HANDOFF_METHOD, part(id, 1))).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
      // At most HOSTED_HANDOFF_PENDING_MAX first parts held at once.
      const ids = Array.from({ length: HOSTED_HANDOFF_PENDING_MAX }, () => newId('s-'));
      for (const held of ids) expect(await other.request(HOSTED_HANDOFF_METHOD, part(held, 0))).toMatchObject({ ok: true });
      expect(await client.request(HOSTED_HANDOFF_METHOD, part(newId('s-'), 0))).toMatchObject({ ok: false, code: 'BUSY' });
    } finally {
      other.close();
    }
    // The connection that held them closed: its parts are dropped (once the host sees it close), room again.
    await expect.poll(async () => (await client.request(HOSTED_HANDOFF_METHOD, part(newId('s-'), 0))).ok).toBe(true);
    expect(await sessions()).toEqual([]);
  });

  // A regression guard (it passes without the hosted handoff too): the endpoint's handshake keeps
  // an unauthenticated peer from any method, this one included.
  it('answers nothing to a peer that did not authenticate, and refuses a `baton ssh` credential', async () => {
    const peer = await RawPeer.connect(host.endpoint.address);
    try {
      await peer.nextFrame(); // the hello
      peer.socket.write(`${JSON.stringify({ type: 'request', id: '1', method: HOSTED_HANDOFF_METHOD, params: good() })}\n`);
      const frame = await peer.nextFrame(2_000);
      expect(frame?.ok).not.toBe(true);
    } finally {
      peer.socket.destroy();
    }
    const opened = await client.request('ssh.credential.open', { host: 'devbox' });
    void client.request('ssh.credential.hold', { credentialId: opened.credentialId }, { timeoutMs: 600_000 }).catch(() => undefined);
    const remote = await connectEndpoint({ endpoint: host.endpoint, token: Buffer.from(opened.token as string, 'base64') });
    try {
      expect(await remote.request(HOSTED_HANDOFF_METHOD, good())).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    } finally {
      remote.close();
    }
    expect(await sessions()).toEqual([]);
  });

  it('refuses the same request id with another payload, or naming a session no hosted handoff landed (CONFLICT)', async () => {
    const params = good();
    expect(await client.request(HOSTED_HANDOFF_METHOD, params)).toMatchObject({ ok: true, outcome: { category: 'accepted', sessionId: params.sessionId } });
    const other = Buffer.from('{"role":"user","content":"something else"}\n');
    expect(await client.request(HOSTED_HANDOFF_METHOD, { ...params, bytes: other.length, data: other.toString('base64') })).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await client.request(HOSTED_HANDOFF_METHOD, { ...params, title: 'another' })).toMatchObject({ ok: false, code: 'CONFLICT' });
    // A refused copy does not replace the first answer: the request itself sent again still gets it.
    expect(await client.request(HOSTED_HANDOFF_METHOD, params)).toMatchObject({ ok: true, outcome: { category: 'accepted', sessionId: params.sessionId } });
    // A session landed another way: its id is no key to offer it (and take its baton) in place of the messages sent.
    const { session } = await landAndReadBack(host.store, { cwd: work, title: 'mine', messages: [{ role: 'user', content: 'mine' }] });
    const holder = (await host.store.getSession(session.id)).holder;
    expect(await client.request(HOSTED_HANDOFF_METHOD, good({ sessionId: session.id }))).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect((await host.store.getSession(session.id)).holder).toEqual(holder);
    expect((await sessions()).sort()).toEqual([params.sessionId, session.id].sort());
  });

  it('refuses (nothing landed) when the client saw a .git above cwd that the host\'s git could not read', async () => {
    const before = await sessions();
    // `work` is in no repository: as a host whose git is missing from its PATH would see a real one.
    expect(await client.request(HOSTED_HANDOFF_METHOD, good({ git: true }))).toMatchObject({ ok: false, code: 'WORKSPACE' });
    expect(await client.request(HOSTED_HANDOFF_METHOD, good({ git: 'yes' }))).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringMatching(/git must be a boolean/) });
    expect(await sessions()).toEqual(before);
  });

  it('still lands and takes a good request after all of that', async () => {
    const params = good();
    const before = await sessions();
    const answer = await client.request(HOSTED_HANDOFF_METHOD, params);
    expect(answer).toMatchObject({ ok: true, outcome: { category: 'accepted', sessionId: params.sessionId } });
    expect((await sessions()).sort()).toEqual([...before, params.sessionId].sort());
  });
});
