import {
  PUBLISH_MESSAGES,
  type PublishHelpOptions,
  type ServerFormAction,
  serverFormActionSchema,
} from '@media/contract';

/** A server that keeps answering set-options is not followed for ever. */
export const MAX_HELP_STEPS = 10;

export type HelpOutcome =
  | {
      kind: 'action';
      action: Exclude<ServerFormAction, { action: 'set-options' }>;
      options: PublishHelpOptions;
    }
  | { kind: 'unexpected'; message: string };

/**
 * spec3 §4 Publish help: a set-options answer updates the options and triggers a follow-up call, until the
 * answer is something else (open-url, display-message, none), which is handed back to show or perform.
 */
export const followPublishHelp = async (
  first: Promise<unknown>,
  call: (options: PublishHelpOptions) => Promise<unknown>,
  options: PublishHelpOptions = {},
): Promise<HelpOutcome> => {
  let answer = await first;
  let current = options;
  for (let step = 0; step < MAX_HELP_STEPS; step++) {
    const parsed = serverFormActionSchema.safeParse(answer);
    if (!parsed.success) {
      const name = (answer as { action?: unknown } | null)?.action;
      return { kind: 'unexpected', message: PUBLISH_MESSAGES.unexpectedAction(String(name ?? '')) };
    }
    if (parsed.data.action !== 'set-options')
      return { kind: 'action', action: parsed.data, options: current };
    current = { ...current, ...parsed.data.options };
    answer = await call(current);
  }
  return { kind: 'unexpected', message: PUBLISH_MESSAGES.unexpectedAction('set-options') };
};
