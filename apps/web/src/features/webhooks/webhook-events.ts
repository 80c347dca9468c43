import {
  WEBHOOK_EVENT_GROUPS,
  WEBHOOK_EVENTS,
  type WebhookDeliveryStatus,
  type WebhookEvent,
  type WebhookEventGroup,
} from '@media/contract';

/** How many of a group's events are chosen: all of them, some, or none (its "select group" box). */
export const groupChoice = (chosen: readonly WebhookEvent[], group: WebhookEventGroup) => {
  const events: readonly WebhookEvent[] = WEBHOOK_EVENT_GROUPS[group];
  const count = events.filter((event) => chosen.includes(event)).length;
  return count === 0 ? 'none' : count === events.length ? 'all' : 'some';
};

/** The chosen events in the order the form lists them, without repeats. */
const inFormOrder = (chosen: Iterable<WebhookEvent>) => {
  const set = new Set(chosen);
  return WEBHOOK_EVENTS.filter((event) => set.has(event));
};

/** Chooses every event of a group (on), or none of them (off); the other groups' stay as they were. */
export const withGroup = (chosen: readonly WebhookEvent[], group: WebhookEventGroup, on: boolean) => {
  const events: readonly WebhookEvent[] = WEBHOOK_EVENT_GROUPS[group];
  return inFormOrder(on ? [...chosen, ...events] : chosen.filter((event) => !events.includes(event)));
};

/** Chooses one event (on) or not (off). */
export const withEvent = (chosen: readonly WebhookEvent[], event: WebhookEvent, on: boolean) =>
  inFormOrder(on ? [...chosen, event] : chosen.filter((other) => other !== event));

/** A delivery that did not arrive (or waits for its next try) may be tried again now. */
export const RETRYABLE_STATUSES: readonly WebhookDeliveryStatus[] = ['failed', 'refused', 'retrying'];

/** A kept request or response body as it reads best: JSON indented, anything else (a cut body too) as it is. */
export const readableBody = (body: string) => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};
