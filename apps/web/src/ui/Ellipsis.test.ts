import { MantineProvider } from '@mantine/core';
import { createElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ellipsisIfText, watchTruncation } from './Ellipsis.tsx';

const render = (content: ReactNode) =>
  renderToString(createElement(MantineProvider, null, ellipsisIfText(content)));

describe('ellipsis in table cells', () => {
  it('cuts a text or a number with an ellipsis and leaves other content as it is', () => {
    expect(render('A very long media name')).toMatch(
      /<span[^>]*text-overflow:ellipsis;white-space:nowrap[^>]*>A very long media name<\/span>/,
    );
    expect(render(42)).toMatch(/text-overflow:ellipsis[^>]*>42</);
    expect(render(createElement('b', null, 'bold'))).not.toContain('ellipsis');
  });

  it('shows no tooltip before the text is found to be cut', () => {
    expect(render('A very long media name')).not.toContain('data-truncated');
  });
});

describe('ellipsis measuring (spec3 §9: resize throttle 250 ms)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const setup = () => {
    const measured = vi.fn(() => 100);
    const box = {
      scrollWidth: 300,
      get clientWidth() {
        return measured();
      },
    };
    let resize = () => {};
    const changes: boolean[] = [];
    const stop = watchTruncation(
      box,
      (truncated) => changes.push(truncated),
      (listener) => {
        resize = listener;
        return () => {
          resize = () => {};
        };
      },
    );
    // A ResizeObserver reports the element once when it starts observing it.
    resize();
    return { box, changes, measured, stop, resize: () => resize() };
  };

  it('tells whether the text is cut on the first report', () => {
    expect(setup().changes).toEqual([true]);
  });

  it('measures again after a resize at most once every 250 ms, the last of a burst included', () => {
    const { changes, measured, resize } = setup();
    measured.mockReturnValue(400);
    const before = measured.mock.calls.length;
    for (let i = 0; i < 10; i++) {
      resize();
      vi.advanceTimersByTime(20);
    }
    expect(measured.mock.calls.length - before).toBe(0);
    vi.advanceTimersByTime(50);
    expect(measured.mock.calls.length - before).toBe(1);
    expect(changes).toEqual([true, false]);
    vi.advanceTimersByTime(300);
    resize();
    expect(measured.mock.calls.length - before).toBe(2);
  });

  it('stops measuring once stopped', () => {
    const { measured, resize, stop } = setup();
    vi.advanceTimersByTime(100);
    resize();
    stop();
    const before = measured.mock.calls.length;
    vi.advanceTimersByTime(1000);
    resize();
    expect(measured.mock.calls.length).toBe(before);
  });
});
