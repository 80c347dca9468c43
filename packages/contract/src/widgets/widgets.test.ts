import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dragStarted, intersects, selectionRect } from './drag-select.ts';
import { ELLIPSIS_RESIZE_THROTTLE_MS, isTruncated } from './ellipsis.ts';
import { PIE_RING_MAX_PROPORTION, ringArcPath, ringProportion } from './ring.ts';
import { TABLE_HEIGHT_OFFSET, TABLE_MIN_HEIGHT, TABLE_SIDEBAR_WIDTH, tableScrollHeight } from './table.ts';
import {
  addTags,
  normaliseTag,
  TAG_INPUT_DEBOUNCE_MS,
  TAG_INPUT_MAX_TAGS,
  tagSuggestions,
  tagSuggestionsOfOptions,
} from './tags.ts';

describe('tag input rules', () => {
  it('turns spaces into dashes, splits on commas and keeps tags unique case-insensitively', () => {
    expect(normaliseTag('  evening news ')).toBe('evening-news');
    expect(addTags(['News'], 'news, sport,  late night ,')).toEqual(['News', 'sport', 'late-night']);
  });

  it('never holds two tags that differ only in case, nor a tag with spaces', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (inputs) => {
        const tags = inputs.reduce<string[]>((acc, input) => addTags(acc, input), []);
        const lower = tags.map((t) => t.toLowerCase());
        return new Set(lower).size === tags.length && tags.every((t) => t !== '' && !/\s/.test(t));
      }),
    );
  });
});

describe('pie ring', () => {
  it('caps the proportion at 0.9999 and floors it at 0', () => {
    expect(ringProportion(1)).toBe(PIE_RING_MAX_PROPORTION);
    expect(ringProportion(-2)).toBe(0);
    expect(ringProportion(Number.NaN)).toBe(0);
    expect(ringArcPath(0.25, 10)).toBe('M 13 3 A 10 10 0 0 1 23.000 13.000');
  });
  it('always draws an arc that ends on the circle', () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 2, noNaN: true }), (p) => {
        const [x, y] = ringArcPath(p, 10).split(' ').slice(-2).map(Number) as [number, number];
        return Math.abs(Math.hypot(x - 13, y - 13) - 10) < 0.01;
      }),
    );
  });
});

describe('drag select', () => {
  it('starts only after a 100 ms press and 5 px of movement', () => {
    expect(dragStarted({ x: 0, y: 0 }, { x: 3, y: 4 }, 100)).toBe(true);
    expect(dragStarted({ x: 0, y: 0 }, { x: 3, y: 3 }, 500)).toBe(false);
    expect(dragStarted({ x: 0, y: 0 }, { x: 30, y: 0 }, 99)).toBe(false);
  });
  it('draws the same rectangle whichever way the pointer moves, and it contains both points', () => {
    const point = fc.record({
      x: fc.integer({ min: -1000, max: 1000 }),
      y: fc.integer({ min: -1000, max: 1000 }),
    });
    fc.assert(
      fc.property(point, point, (a, b) => {
        const rect = selectionRect(a, b);
        const dot = (p: { x: number; y: number }) => ({ left: p.x, right: p.x, top: p.y, bottom: p.y });
        return (
          JSON.stringify(rect) === JSON.stringify(selectionRect(b, a)) &&
          intersects(rect, dot(a)) &&
          intersects(rect, dot(b))
        );
      }),
    );
  });
});

describe('tag input suggestions (spec3 §9: matches only)', () => {
  it('shows the suggestions that contain what is typed, ignoring case, less the tags already chosen', () => {
    const candidates = ['News', 'late news', 'Sport', 'newsroom', 'weather'];
    expect(tagSuggestions(candidates, 'NEW', [])).toEqual(['News', 'late-news', 'newsroom']);
    expect(tagSuggestions(candidates, 'new', ['news'])).toEqual(['late-news', 'newsroom']);
    expect(tagSuggestions(candidates, 'late n', [])).toEqual(['late-news']);
    expect(tagSuggestions(candidates, '  ', [])).toEqual([]);
    expect(TAG_INPUT_DEBOUNCE_MS).toBe(100);
    expect(TAG_INPUT_MAX_TAGS).toBe(Number.POSITIVE_INFINITY);
  });

  it('never suggests a tag that does not match or is already chosen', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.string(), fc.array(fc.string()), (candidates, typed, chosen) => {
        const shown = tagSuggestions(candidates, typed, chosen);
        const needle = normaliseTag(typed).toLowerCase();
        const taken = new Set(chosen.map((tag) => tag.toLowerCase()));
        return shown.every((tag) => tag.toLowerCase().includes(needle) && !taken.has(tag.toLowerCase()));
      }),
    );
  });

  it("takes a form item's suggestions from its options", () => {
    expect(tagSuggestionsOfOptions({ suggestions: ['a', 2, 'b'] })).toEqual(['a', 'b']);
    expect(tagSuggestionsOfOptions(undefined)).toEqual([]);
  });
});

describe('ellipsis and table sizes (spec3 §9)', () => {
  it('measures a text again at most every 250 ms and calls it cut when it is wider than its box', () => {
    expect(ELLIPSIS_RESIZE_THROTTLE_MS).toBe(250);
    expect(isTruncated({ scrollWidth: 240, clientWidth: 120 })).toBe(true);
    expect(isTruncated({ scrollWidth: 120, clientWidth: 120 })).toBe(false);
  });

  it('makes a table body the window height less 200, beside a 50 px sidebar', () => {
    expect(TABLE_HEIGHT_OFFSET).toBe(200);
    expect(TABLE_SIDEBAR_WIDTH).toBe(50);
    expect(tableScrollHeight(900)).toBe(700);
    expect(tableScrollHeight(250)).toBe(TABLE_MIN_HEIGHT);
  });
});
