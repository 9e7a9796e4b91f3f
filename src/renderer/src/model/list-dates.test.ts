// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => vi.restoreAllMocks());

/** A fresh module (its state is the page's), and a count of the Intl.DateTimeFormat objects made. */
async function freshListDates() {
  vi.resetModules();
  const Real = Intl.DateTimeFormat;
  const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
    return new Real(...args);
  } as typeof Intl.DateTimeFormat);
  return { module: await import('./list-dates'), made };
}

const afterPaint = () => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));

describe('list dates (issue 15: the first rows do not wait for ICU)', () => {
  it('nothing is made until a row subscribes, then once after the next paint, and every subscriber hears it', async () => {
    const { module, made } = await freshListDates();
    await afterPaint();
    expect(made).not.toHaveBeenCalled();
    const first = vi.fn();
    const second = vi.fn();
    module.subscribeListDates(first);
    module.subscribeListDates(second);
    expect(module.listDatesReady()).toBe(false);
    expect(made).not.toHaveBeenCalled();
    await afterPaint();
    await afterPaint();
    expect(module.listDatesReady()).toBe(true);
    expect(made).toHaveBeenCalledTimes(1);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('an unsubscribed listener is not called, and a later subscriber makes nothing more', async () => {
    const { module, made } = await freshListDates();
    const gone = vi.fn();
    module.subscribeListDates(gone)();
    await afterPaint();
    await afterPaint();
    expect(gone).not.toHaveBeenCalled();
    expect(module.listDatesReady()).toBe(true);
    module.subscribeListDates(vi.fn());
    await afterPaint();
    await afterPaint();
    expect(made).toHaveBeenCalledTimes(1);
  });
});
