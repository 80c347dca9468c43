import { describe, expect, it } from 'vitest';
import { treeKeyAction } from './tree-keys.ts';

describe('the keys of the folder tree', () => {
  const closed = { expandable: true, expanded: false };
  const open = { expandable: true, expanded: true };
  const leaf = { expandable: false, expanded: false };

  it('moves up and down and selects with Enter or Space', () => {
    expect(treeKeyAction('ArrowDown', leaf)).toBe('next');
    expect(treeKeyAction('ArrowUp', leaf)).toBe('previous');
    expect(treeKeyAction('Enter', leaf)).toBe('select');
    expect(treeKeyAction(' ', leaf)).toBe('select');
    expect(treeKeyAction('a', leaf)).toBeNull();
  });

  it('opens a closed folder with the right arrow, then goes into it', () => {
    expect(treeKeyAction('ArrowRight', closed)).toBe('expand');
    expect(treeKeyAction('ArrowRight', open)).toBe('firstChild');
    expect(treeKeyAction('ArrowRight', leaf)).toBeNull();
  });

  it('closes an open folder with the left arrow, else goes to its parent', () => {
    expect(treeKeyAction('ArrowLeft', open)).toBe('collapse');
    expect(treeKeyAction('ArrowLeft', closed)).toBe('parent');
    expect(treeKeyAction('ArrowLeft', leaf)).toBe('parent');
  });
});
