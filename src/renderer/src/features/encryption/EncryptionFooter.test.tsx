// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptionFooter } from './EncryptionFooter';

afterEach(cleanup);

describe('EncryptionFooter', () => {
  it('says plainly when the store is not encrypted, with the reason on hover', () => {
    render(<EncryptionFooter encryption={{ state: 'off', detail: 'Not encrypted at rest: no secret store is available (Secret Service: no bus)' }} />);
    const el = screen.getByTestId('encryption-status');
    expect(el.textContent).toBe('Not encrypted at rest');
    expect(el.getAttribute('data-encryption-state')).toBe('off');
    expect(el.getAttribute('title')).toMatch(/no secret store is available/);
  });

  it('says so when it is on, and shows nothing for a host that does not report it', () => {
    const { rerender } = render(<EncryptionFooter encryption={{ state: 'on', detail: 'Encrypted at rest (AES-256-GCM), key 0123456789abcdef in the Secret Service' }} />);
    expect(screen.getByTestId('encryption-status').textContent).toBe('Encrypted at rest');
    rerender(<EncryptionFooter encryption={undefined} />);
    expect(screen.queryByTestId('encryption-status')).toBeNull();
  });
});
