import { WEBHOOK_EVENT_GROUPS, WEBHOOK_EVENTS } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { groupChoice, readableBody, withEvent, withGroup } from './webhook-events.ts';

describe("a webhook's events as grouped checkboxes (issue 33)", () => {
  it('says whether all, some or none of a group is chosen', () => {
    expect(groupChoice([], 'Streams')).toBe('none');
    expect(groupChoice(['stream.started'], 'Streams')).toBe('some');
    expect(groupChoice(['stream.stopped', 'node.created', 'stream.started'], 'Streams')).toBe('all');
  });

  it("selects and clears a whole group, keeping the other groups' events, in the form's order", () => {
    const chosen = withGroup(['user.created', 'publish.done'], 'Publishing', true);
    expect(chosen).toEqual(['publish.started', 'publish.done', 'publish.failed', 'user.created']);
    expect(withGroup(chosen, 'Publishing', false)).toEqual(['user.created']);
    expect(withGroup([], 'Media', true)).toEqual([...WEBHOOK_EVENT_GROUPS.Media]);
  });

  it('chooses one event once, and unchooses it', () => {
    expect(withEvent(['node.moved'], 'node.created', true)).toEqual(['node.created', 'node.moved']);
    expect(withEvent(['node.created'], 'node.created', true)).toEqual(['node.created']);
    expect(withEvent(['node.created', 'node.moved'], 'node.created', false)).toEqual(['node.moved']);
    const all = Object.keys(WEBHOOK_EVENT_GROUPS).reduce(
      (events, group) => withGroup(events, group as keyof typeof WEBHOOK_EVENT_GROUPS, true),
      [] as typeof WEBHOOK_EVENTS,
    );
    expect(all).toEqual(WEBHOOK_EVENTS);
  });
});

describe('a kept body', () => {
  it('is indented when it is JSON and shown as it is when not (a body cut at 2 kB is not)', () => {
    expect(readableBody('{"type":"ping","data":{"webhookId":3}}')).toBe(
      '{\n  "type": "ping",\n  "data": {\n    "webhookId": 3\n  }\n}',
    );
    expect(readableBody('{"type":"pi')).toBe('{"type":"pi');
    expect(readableBody('')).toBe('');
  });
});
