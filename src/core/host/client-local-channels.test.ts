import { describe, expect, it } from 'vitest';
import { createUiDispatcher, type UiHandlerTable } from './ui-handlers.js';
import { CLIENT_LOCAL_CHANNELS } from '../../shared/preferences.js';

describe('client-local channels', () => {
  it('the core never answers (nor stores) preferences: each is refused as client-local', async () => {
    const dispatch = createUiDispatcher({} as UiHandlerTable);
    expect(CLIENT_LOCAL_CHANNELS).toEqual(['prefs:get', 'prefs:set']);
    for (const channel of CLIENT_LOCAL_CHANNELS) {
      const outcome = await dispatch(channel, {});
      expect(outcome).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
      if (!outcome.ok) expect(outcome.error.message).toContain('client-local');
    }
  });
});
