import { describe, expect, it } from 'vitest';
import { recentPublishesOf } from './recent-publishes.ts';

describe('recent publishes', () => {
  it('names each published item by its node and its button, newest first', () => {
    expect(
      recentPublishesOf([7, 8], {
        dstPath: '/evening-news/Publish/Web export',
        nodeNames: ['Weather opener', 'Press conference'],
      }),
    ).toEqual([
      { id: 8, accountName: 'evening-news', buttonName: 'Web export', nodeName: 'Press conference' },
      { id: 7, accountName: 'evening-news', buttonName: 'Web export', nodeName: 'Weather opener' },
    ]);
  });
});
