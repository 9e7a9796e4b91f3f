import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApprovalService } from './approval-service.js';
import { initPolicy } from '../policy/risk.js';
import { removeDir, tempDataDir } from '../tasks/test-support/endpoint.js';

// The real loader, counted: when the service starts the grammar's load is what this file checks.
vi.mock('../policy/risk.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../policy/risk.js')>();
  return { ...real, initPolicy: vi.fn(real.initPolicy) };
});

let dataDir: string;
beforeEach(async () => {
  dataDir = await tempDataDir();
  vi.mocked(initPolicy).mockClear();
});
afterEach(async () => {
  await removeDir(dataDir);
});

describe('the approval service loads the risk policy on its first session, not when created', () => {
  it('a new service starts no load; its first session history starts one, and later ones reuse it', async () => {
    const service = createApprovalService({ dataDir, home: '/home/u' });
    expect(initPolicy).not.toHaveBeenCalled();
    expect(await service.history('sess-1')).toEqual([]);
    expect(initPolicy).toHaveBeenCalledTimes(1);
    await service.history('sess-2');
    expect(initPolicy).toHaveBeenCalledTimes(1);
    await service.close();
  });
});
