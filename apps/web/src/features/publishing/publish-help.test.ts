import { PUBLISH_MESSAGES } from '@media/contract';
import { describe, expect, it, vi } from 'vitest';
import { followPublishHelp, MAX_HELP_STEPS } from './publish-help.ts';

describe('followPublishHelp (spec3 §4 Publish help)', () => {
  it('calls again with the options of each set-options until the answer is another action', async () => {
    const call = vi
      .fn()
      .mockResolvedValueOnce({ action: 'set-options', options: { step: 'republish' } })
      .mockResolvedValueOnce({ action: 'display-message', message: 'Publishing again as item 7' });
    const outcome = await followPublishHelp(
      Promise.resolve({ action: 'set-options', options: { step: 'connect-youtube', keep: 1 } }),
      call,
    );
    expect(call.mock.calls).toEqual([
      [{ step: 'connect-youtube', keep: 1 }],
      [{ step: 'republish', keep: 1 }],
    ]);
    expect(outcome).toEqual({
      kind: 'action',
      action: { action: 'display-message', message: 'Publishing again as item 7', type: 'danger' },
      options: { step: 'republish', keep: 1 },
    });
  });

  it('hands back an open-url at once, and names an answer it does not know', async () => {
    const call = vi.fn();
    expect(
      await followPublishHelp(Promise.resolve({ action: 'open-url', url: 'https://x/auth' }), call),
    ).toMatchObject({
      kind: 'action',
      action: { action: 'open-url', url: 'https://x/auth' },
    });
    expect(await followPublishHelp(Promise.resolve({ action: 'explode' }), call)).toEqual({
      kind: 'unexpected',
      message: PUBLISH_MESSAGES.unexpectedAction('explode'),
    });
    expect(call).not.toHaveBeenCalled();
  });

  it('stops a server that answers set-options for ever', async () => {
    const call = vi.fn().mockResolvedValue({ action: 'set-options', options: {} });
    const outcome = await followPublishHelp(Promise.resolve({ action: 'set-options', options: {} }), call);
    expect(outcome.kind).toBe('unexpected');
    expect(call).toHaveBeenCalledTimes(MAX_HELP_STEPS);
  });
});
