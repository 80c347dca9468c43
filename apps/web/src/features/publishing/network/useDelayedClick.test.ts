import { NETWORK_DOUBLE_CLICK_MS } from '@media/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { delayedClick } from './useDelayedClick.ts';

describe('delayed single click in network mode (spec3 §2)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('acts only after 500 ms', () => {
    const clicks = delayedClick();
    const action = vi.fn();
    clicks.schedule(action);
    vi.advanceTimersByTime(NETWORK_DOUBLE_CLICK_MS - 1);
    expect(action).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('never acts for a click that a double-click cancelled', () => {
    const clicks = delayedClick();
    const action = vi.fn();
    clicks.schedule(action);
    clicks.schedule(action);
    clicks.cancel();
    vi.advanceTimersByTime(NETWORK_DOUBLE_CLICK_MS * 2);
    expect(action).not.toHaveBeenCalled();
  });

  it('lets a newer click replace an older one', () => {
    const clicks = delayedClick();
    const first = vi.fn();
    const second = vi.fn();
    clicks.schedule(first);
    vi.advanceTimersByTime(300);
    clicks.schedule(second);
    vi.advanceTimersByTime(NETWORK_DOUBLE_CLICK_MS);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});
