import { describe, expect, it } from 'vitest';
import { applyPreferencesPatch, DEFAULT_PREFERENCES, notifiesFor, salvagePreferences } from './preferences.js';

describe('preferences', () => {
  it('salvage keeps good fields, defaults bad ones, drops unknown keys', () => {
    expect(salvagePreferences({ theme: 'dark', sidebarWidth: -1, extra: 1, notifications: { approvals: false, minimumRisk: 'nope' } })).toEqual({
      ...DEFAULT_PREFERENCES,
      theme: 'dark',
      notifications: { approvals: false, minimumRisk: 'low' },
    });
    for (const junk of [null, 7, 'x', [], undefined]) expect(salvagePreferences(junk)).toEqual(DEFAULT_PREFERENCES);
  });

  it('a patch changes one notification field and keeps the other', () => {
    const next = applyPreferencesPatch({ ...DEFAULT_PREFERENCES, notifications: { approvals: false, minimumRisk: 'medium' } }, { notifications: { approvals: true } });
    expect(next.notifications).toEqual({ approvals: true, minimumRisk: 'medium' });
  });

  it('notifiesFor honours the switch and the minimum risk', () => {
    const medium = { ...DEFAULT_PREFERENCES, notifications: { approvals: true, minimumRisk: 'medium' as const } };
    expect([notifiesFor(medium, 'low'), notifiesFor(medium, 'medium'), notifiesFor(medium, 'high')]).toEqual([false, true, true]);
    expect(notifiesFor({ ...medium, notifications: { approvals: false, minimumRisk: 'low' } }, 'high')).toBe(false);
  });
});
