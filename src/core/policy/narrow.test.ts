import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInside } from './paths.js';
import { covers, ruleMatches, type Action } from './rules.js';
import { intersectRoots, modeRank, narrowPermissions, permits, policyFromState, policyToState, type PermissionPolicy } from './narrow.js';

/** Small alphabets, so generated rules overlap, cover each other and collide often. */
const TOOLS = ['Bash', 'Edit', 'Write', 'Read', 'WebFetch'];
const COMMANDS = ['npm', 'npm test', 'npm test --watch', 'npm testx', 'git push', 'git push -f', 'npm test && rm -rf /', 'ls', 'npm test;ls'];
const PATHS = ['/', '/w', '/w/src', '/w/src/a.ts', '/w2', '/w/../etc/passwd', '/w/src/../b', '/w/src/'];
const MODES = ['plan', 'default', 'acceptEdits', 'bypassPermissions', 'weird'];

const rule = fc.oneof(
  fc.constantFrom(...TOOLS),
  fc.tuple(fc.constantFrom(...TOOLS), fc.constantFrom(...COMMANDS)).map(([t, c]) => `${t}(${c}:*)`),
  fc.tuple(fc.constantFrom(...TOOLS), fc.constantFrom(...COMMANDS, ...PATHS)).map(([t, c]) => `${t}(${c})`),
  fc.tuple(fc.constantFrom(...TOOLS), fc.constantFrom(...PATHS)).map(([t, p]) => `${t}(${p.replace(/\/$/, '')}/**)`),
);
const policy: fc.Arbitrary<PermissionPolicy> = fc.record({
  mode: fc.constantFrom(...MODES),
  allow: fc.array(rule, { maxLength: 4 }),
  deny: fc.array(rule, { maxLength: 2 }),
  roots: fc.array(fc.constantFrom(...PATHS), { maxLength: 3 }),
  grants: fc.array(rule, { maxLength: 3 }),
});
const action: fc.Arbitrary<Action> = fc.constantFrom(...TOOLS).chain((tool) =>
  ['Edit', 'Write', 'Read'].includes(tool)
    ? fc.constantFrom(...PATHS).map((p) => ({ tool, target: p, path: p }))
    : fc.constantFrom(...COMMANDS, ...PATHS).map((c) => ({ tool, target: c })),
);

describe('narrowPermissions (property, 100,000 runs)', () => {
  it('whatever the result permits, both the source and the target permit; the rules are a subset', () => {
    let permittedSomewhere = 0;
    fc.assert(
      fc.property(policy, policy, fc.array(action, { minLength: 1, maxLength: 6 }), (source, target, actions) => {
        const result = narrowPermissions(source, target);
        for (const a of actions) {
          if (permits(result, a)) {
            permittedSomewhere++;
            if (!permits(source, a) || !permits(target, a)) return false;
          }
        }
        // Structure: nothing new appears, deny only grows, the mode never loosens, roots shrink.
        const everyRuleFromAndCovered = [...result.allow, ...result.grants].every(
          (r) => ([...source.allow, ...source.grants].includes(r) || [...target.allow, ...target.grants].includes(r)) &&
            ([...source.allow, ...source.grants].some((x) => covers(x, r)) && [...target.allow, ...target.grants].some((x) => covers(x, r))),
        );
        const denyGrows = [...source.deny, ...target.deny].every((r) => result.deny.includes(r));
        const modeNarrows = modeRank(result.mode) <= Math.min(modeRank(source.mode), modeRank(target.mode));
        const rootsShrink = result.roots.every((r) => source.roots.some((s) => isInside(r, s)) && target.roots.some((t) => isInside(r, t)));
        return everyRuleFromAndCovered && denyGrows && modeNarrows && rootsShrink;
      }),
      { numRuns: 100_000 },
    );
    // The property must not hold vacuously: plenty of actions were actually permitted.
    expect(permittedSomewhere).toBeGreaterThan(10_000);
  });

  it('narrowing twice with the same target changes nothing more (idempotent)', () => {
    fc.assert(
      fc.property(policy, policy, fc.array(action, { maxLength: 4 }), (s, t, actions) => {
        const once = narrowPermissions(s, t);
        const twice = narrowPermissions(once, t);
        return actions.every((a) => permits(twice, a) === permits(once, a));
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('rules', () => {
  it('a prefix rule never stretches over a chain', () => {
    expect(ruleMatches('Bash(npm test:*)', { tool: 'Bash', target: 'npm test --watch' })).toBe(true);
    expect(ruleMatches('Bash(npm test:*)', { tool: 'Bash', target: 'npm test && rm -rf /' })).toBe(false);
    expect(ruleMatches('Bash(npm test:*)', { tool: 'Bash', target: 'npm testx' })).toBe(false);
    expect(ruleMatches('Edit(/w/**)', { tool: 'Edit', target: '/w/../etc/passwd' })).toBe(false);
  });

  it('examples: a session grant dies when the target does not allow the tool; deny rules add up', () => {
    const source: PermissionPolicy = { mode: 'bypassPermissions', allow: ['Bash(npm:*)'], deny: [], roots: ['/w'], grants: ['Bash(git push)'] };
    const target: PermissionPolicy = { mode: 'default', allow: ['Bash(npm test:*)'], deny: ['WebFetch'], roots: ['/'], grants: [] };
    const result = narrowPermissions(source, target);
    expect(result).toEqual({ mode: 'default', allow: ['Bash(npm test:*)'], deny: ['WebFetch'], roots: ['/w'], grants: [] });
    expect(intersectRoots(['/a', '/b/c'], ['/b', '/x'])).toEqual(['/b/c']);
  });

  it('PermissionState round-trips', () => {
    const p = policyFromState({ mode: 'default', rules: ['Bash(ls)', 'deny:WebFetch', 'root:/w', 'grant:Bash(npm test)'] }, '/fallback');
    expect(p).toEqual({ mode: 'default', allow: ['Bash(ls)'], deny: ['WebFetch'], roots: ['/w'], grants: ['Bash(npm test)'] });
    expect(policyFromState(policyToState(p), '/x')).toEqual(p);
    expect(policyFromState(null, '/w').roots).toEqual(['/w']);
  });
});
