import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE_ALL, pageInfo, windowForPageSize, windowOfPage } from './paginator.ts';

describe('paginator', () => {
  it('describes the range shown', () => {
    expect(pageInfo({ startIndex: 0, pageSize: 10 }, 95)).toMatchObject({
      page: 1,
      pageCount: 10,
      text: '1–10 of 95',
    });
    expect(pageInfo({ startIndex: 90, pageSize: 10 }, 95)).toMatchObject({
      page: 10,
      from: 91,
      to: 95,
      text: '91–95 of 95',
    });
    expect(pageInfo({ startIndex: 0, pageSize: PAGE_SIZE_ALL }, 95)).toMatchObject({
      page: 1,
      pageCount: 1,
      text: '1–95 of 95',
    });
    expect(pageInfo({ startIndex: 0, pageSize: 20 }, 0)).toMatchObject({
      page: 1,
      pageCount: 1,
      from: 0,
      to: 0,
      text: '0 of 0',
    });
  });

  it('moves to a page, clamped to the pages that exist', () => {
    expect(windowOfPage(3, 20, 95)).toEqual({ startIndex: 40, pageSize: 20 });
    expect(windowOfPage(99, 20, 95)).toEqual({ startIndex: 80, pageSize: 20 });
    expect(windowOfPage(0, 20, 95)).toEqual({ startIndex: 0, pageSize: 20 });
  });

  it('keeps the first item visible when the page size changes', () => {
    expect(windowForPageSize({ startIndex: 30, pageSize: 10 }, 20)).toEqual({
      startIndex: 20,
      pageSize: 20,
    });
    expect(windowForPageSize({ startIndex: 30, pageSize: 10 }, PAGE_SIZE_ALL)).toEqual({
      startIndex: 0,
      pageSize: 0,
    });
  });

  it('always shows a range inside the items, with the page within the page count', () => {
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.constantFrom(10, 20, 50, 100, PAGE_SIZE_ALL),
        fc.nat(20_000),
        (total, size, start) => {
          const info = pageInfo({ startIndex: start, pageSize: size }, total);
          const inside =
            total === 0
              ? info.from === 0 && info.to === 0
              : info.from >= 1 && info.from <= info.to && info.to <= total;
          return inside && info.page >= 1 && info.page <= info.pageCount;
        },
      ),
    );
  });

  it('lands every page it moves to on a page boundary', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 500 }),
        fc.constantFrom(10, 20, 50, 100),
        fc.nat(5000),
        (page, size, total) => {
          const window = windowOfPage(page, size, total);
          return (
            window.startIndex % size === 0 &&
            pageInfo(window, total).page === Math.min(Math.max(1, page), Math.max(1, Math.ceil(total / size)))
          );
        },
      ),
    );
  });
});
