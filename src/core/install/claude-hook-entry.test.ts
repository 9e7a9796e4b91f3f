import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addBatonHook, BATON_HOOK_COMMAND, hasBatonHook, removeBatonHook } from './claude-hook-entry.js';

/** Settings objects of any shape Claude Code accepts, written with any indent and line ending. */
const hookGroup = fc.record({ matcher: fc.string({ maxLength: 8 }), hooks: fc.array(fc.record({ type: fc.constant('command'), command: fc.string({ maxLength: 12 }) }), { maxLength: 2 }) });
const settingsArb = fc.record(
  {
    permissions: fc.record({ allow: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }) }),
    env: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
    hooks: fc.record({ PreToolUse: fc.array(hookGroup, { maxLength: 3 }), Stop: fc.array(hookGroup, { maxLength: 1 }) }, { requiredKeys: [] }),
    other: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const textArb = fc.tuple(settingsArb, fc.constantFrom('  ', '    ', '\t', ''), fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([value, indent, eol, finalNewline]) => {
  const text = JSON.stringify(value, null, indent).replace(/\n/g, eol);
  return finalNewline ? `${text}${eol}` : text;
});

describe('the Claude Code hook entry', () => {
  it('add then remove gives back the exact bytes, for any settings and formatting', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const added = addBatonHook('settings.json', text);
        expect(added.changed).toBe(true);
        const before = JSON.parse(text) as { hooks?: { PreToolUse?: unknown[] } };
        const after = JSON.parse(added.text) as { hooks: { PreToolUse: unknown[] } };
        expect(after.hooks.PreToolUse.slice(0, -1)).toEqual(before.hooks?.PreToolUse ?? []);
        expect({ ...after, hooks: { ...after.hooks, PreToolUse: before.hooks?.PreToolUse } }).toEqual({ ...before, hooks: { ...before.hooks, PreToolUse: before.hooks?.PreToolUse } });
        expect(hasBatonHook('settings.json', added.text)).toBe(true);
        expect(addBatonHook('settings.json', added.text)).toMatchObject({ changed: false, text: added.text });
        expect(removeBatonHook('settings.json', added.text, added.created).text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('removes Baton from a group the person added their own hook to, and keeps theirs', () => {
    const text = `{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [\n          { "type": "command", "command": "${BATON_HOOK_COMMAND}" },\n          { "type": "command", "command": "mine" }\n        ]\n      }\n    ]\n  }\n}\n`;
    const out = removeBatonHook('s.json', text, []).text;
    expect(JSON.parse(out)).toEqual({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'mine' }] }] } });
    expect(out).toContain('          { "type": "command", "command": "mine" }');
  });

  it('strings with brackets, escapes and unicode do not confuse the locator', () => {
    const text = '{"a": "}]\\"{[", "b": ["\\u00e9]", {"c": "\\\\"}], "hooks": {"PreToolUse": []}}';
    const added = addBatonHook('s.json', text);
    expect(JSON.parse(added.text).a).toBe('}]"{[');
    expect(added.text.includes('\n')).toBe(false);
    expect(removeBatonHook('s.json', added.text, added.created).text).toBe(text);
  });
});
