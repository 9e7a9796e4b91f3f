import { describe, expect, it } from 'vitest';
import { decodeBundle, encodeBundle, type SessionBundle } from './session-bundle.js';

const good: SessionBundle = {
  v: 1,
  sessionId: 's-1',
  files: [
    { path: 'session.json', data: Buffer.from('{"id":"s-1"}') },
    { path: 'messages.jsonl', data: Buffer.from('{"seq":0}\n') },
    { path: 'artifacts/abc.patch', data: Buffer.alloc(1000, 7) },
  ],
};

describe('session bundles', () => {
  it('round-trip byte for byte', () => {
    const decoded = decodeBundle(encodeBundle(good));
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(decoded.bundle.files.map((f) => [f.path, f.data.toString('hex')])).toEqual(good.files.map((f) => [f.path, f.data.toString('hex')]));
  });
  const hostilePaths = ['../x', '/etc/passwd', 'artifacts/../../x', 'artifacts/', 'artifacts/.hidden', 'artifacts/a/b', 'sessions.json', 'session.json/..', 'artifacts/-x', 'handoff.json', 'artifacts/a\\b', 'ARTIFACTS/x', ''];
  it.each(hostilePaths)('refuses the path %j', (path) => {
    expect(decodeBundle(encodeBundle({ ...good, files: [...good.files, { path, data: Buffer.from('x') }] }))).toMatchObject({ ok: false });
  });
  it('refuses bad ids, missing files, duplicates and damaged framing', () => {
    expect(decodeBundle(encodeBundle({ ...good, sessionId: '../s' })).ok).toBe(false);
    expect(decodeBundle(encodeBundle({ ...good, files: good.files.slice(1) })).ok).toBe(false);
    expect(decodeBundle(encodeBundle({ ...good, files: [...good.files, good.files[0]!] })).ok).toBe(false);
    const bytes = encodeBundle(good);
    expect(decodeBundle(bytes.subarray(0, bytes.length - 1)).ok).toBe(false);
    expect(decodeBundle(Buffer.concat([bytes, Buffer.from('x')])).ok).toBe(false);
    expect(decodeBundle(Buffer.from([0, 0, 0, 200, 1, 2])).ok).toBe(false);
    expect(decodeBundle(Buffer.alloc(2)).ok).toBe(false);
    const badHeader = Buffer.concat([Buffer.from([0, 0, 0, 3]), Buffer.from('{x}')]);
    expect(decodeBundle(badHeader).ok).toBe(false);
  });
});
