import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { createApiFromTransport, createBridgeTransport, type BatonApi } from '../api';
import type { MemoryBridge } from './memory-bridge';

/**
 * The set-up every App-level test file shares: each test starts at the page's bare address with
 * empty local storage, and ends with the DOM unmounted and every api it made closed. Call once at
 * a file's top level; `apiFor` makes an api over a bridge, closed after the test.
 */
export function appTestApis(): { apis: BatonApi[]; apiFor: (bridge: MemoryBridge) => BatonApi } {
  const apis: BatonApi[] = [];
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
    window.localStorage.clear();
  });
  afterEach(() => {
    cleanup();
    for (const api of apis.splice(0)) api.close();
  });
  const apiFor = (bridge: MemoryBridge): BatonApi => {
    const api = createApiFromTransport(createBridgeTransport(bridge));
    apis.push(api);
    return api;
  };
  return { apis, apiFor };
}
