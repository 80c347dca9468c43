import { describe, expect, it } from 'vitest';
import {
  ENDPOINT_LOOKUP_REQUEST,
  edgesEndpointIdsOf,
  itemsOfEndpoint,
  priorityMapOf,
} from './queue-request.ts';

describe('what a queue request sends', () => {
  it('sends edgesEndpointIds for the endpoints chosen, and nothing for all of them', () => {
    expect(edgesEndpointIdsOf(['7', '3'])).toBe('3,7');
    expect(edgesEndpointIdsOf([])).toBeUndefined();
  });

  it("sends priorityMap from the endpoints' arrivals folder priorities", () => {
    const endpoints = [
      { id: 5, arrivalsFolderId: 1 },
      { id: 2, arrivalsFolderId: 2 },
      { id: 9, arrivalsFolderId: null },
      { id: 4, arrivalsFolderId: 3 },
    ];
    const folders = [
      { id: 1, priority: 10 },
      { id: 2, priority: -3 },
      { id: 3, priority: 0 },
    ];
    expect(priorityMapOf(endpoints, folders)).toBe('{"2":-3,"5":10}');
    expect(priorityMapOf(endpoints, [{ id: 1, priority: 0 }])).toBeUndefined();
    expect(priorityMapOf([], folders)).toBeUndefined();
  });

  it("reads spec2 §7's endpoint lookup and filters it by endpoint on the client", () => {
    expect(ENDPOINT_LOOKUP_REQUEST).toMatchObject({
      sortKey: 'id',
      sortDirection: 1,
      filters: 'queued|streams',
      pageSize: 100,
    });
    type Item = Parameters<typeof itemsOfEndpoint>[0][number];
    const items = [
      { id: 1, endpointId: 4 },
      { id: 2, endpointId: 5 },
      { id: 3, endpointId: 4 },
    ] as Item[];
    expect(itemsOfEndpoint(items, 4).map((item) => item.id)).toEqual([1, 3]);
  });
});
