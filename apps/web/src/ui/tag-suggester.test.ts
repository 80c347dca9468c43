import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DynamicForm } from './dynamic-form/DynamicForm.tsx';
import { createTagSuggester, resolveTagSuggestions } from './tag-suggester.ts';

const TAGS = ['News', 'late news', 'Sport', 'newsroom', 'weather'];

// The form's tag field, drawn as the suggestions it was given.
vi.mock('./TagInput.tsx', () => ({
  TagInput: (props: { suggestions?: unknown }) =>
    createElement('i', { 'data-suggestions': JSON.stringify(props.suggestions) }),
}));

describe('tag input suggestions (spec3 §9: debounce 100 ms, matches only)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('suggests only the matches of what is typed, less the tags already chosen', async () => {
    expect(await resolveTagSuggestions(TAGS, 'news', ['News'])).toEqual(['late-news', 'newsroom']);
    // A search may answer more than matches; only the matches show.
    const search = vi.fn(async () => ['Newsnight', 'Weather']);
    expect(await resolveTagSuggestions(search, 'NEWS', [])).toEqual(['Newsnight']);
    expect(await resolveTagSuggestions(search, ' ', [])).toEqual([]);
    expect(search).toHaveBeenCalledTimes(1);
  });

  it('asks 100 ms after typing stops, for the last text only', async () => {
    const search = vi.fn(async (typed: string) => TAGS.filter((tag) => tag.startsWith(typed)));
    const shown: string[][] = [];
    const suggester = createTagSuggester(
      () => search,
      (suggestions) => shown.push(suggestions),
    );
    suggester.typed('S', []);
    await vi.advanceTimersByTimeAsync(60);
    suggester.typed('Sp', []);
    await vi.advanceTimersByTimeAsync(99);
    expect(search).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(search.mock.calls).toEqual([['Sp']]);
    expect(shown).toEqual([['Sport']]);
  });

  it('drops an answer to an older text and suggests nothing when the search fails', async () => {
    let answer: (tags: string[]) => void = () => {};
    const slow = vi.fn(() => new Promise<string[]>((resolve) => (answer = resolve)));
    const shown: string[][] = [];
    const suggester = createTagSuggester(
      () => slow,
      (suggestions) => shown.push(suggestions),
    );
    suggester.typed('new', []);
    await vi.advanceTimersByTimeAsync(100);
    suggester.typed('', []);
    answer(['news']);
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual([[]]);

    const failing = createTagSuggester(
      () => () => Promise.reject(new Error('offline')),
      (suggestions) => shown.push(suggestions),
    );
    failing.typed('x', []);
    await vi.advanceTimersByTimeAsync(100);
    expect(shown).toEqual([[], []]);
  });

  it("gives a form's tag field the suggestions of its options", () => {
    const html = renderToString(
      createElement(
        MantineProvider,
        null,
        createElement(DynamicForm, {
          schema: [{ name: 'tags', type: 'multiple', label: 'Tags', options: { suggestions: TAGS } }],
          values: { tags: ['News'] },
          onChange: () => {},
        }),
      ),
    );
    expect(html).toContain(`data-suggestions="${JSON.stringify(TAGS).replaceAll('"', '&quot;')}"`);
  });
});
