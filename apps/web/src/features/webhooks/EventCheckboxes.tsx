import { Checkbox, Code, Fieldset, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  WEBHOOK_EVENT_GROUPS,
  WEBHOOK_EVENT_TEXT,
  type WebhookEvent,
  type WebhookEventGroup,
} from '@media/contract';
import { groupChoice, withEvent, withGroup } from './webhook-events.ts';

const GROUPS = Object.keys(WEBHOOK_EVENT_GROUPS) as WebhookEventGroup[];

/** One group: its "select group" box (on when all are, mixed when some are), then each event with its meaning. */
const EventGroup = ({
  group,
  value,
  onChange,
}: {
  group: WebhookEventGroup;
  value: WebhookEvent[];
  onChange: (events: WebhookEvent[]) => void;
}) => {
  const choice = groupChoice(value, group);
  return (
    <Paper withBorder p="sm" data-testid={`webhook-event-group-${group}`}>
      <Stack gap="xs">
        <Checkbox
          fw={600}
          label={group}
          aria-label={`All ${group} events`}
          checked={choice === 'all'}
          indeterminate={choice === 'some'}
          onChange={(event) => onChange(withGroup(value, group, event.currentTarget.checked))}
        />
        <Stack gap={6} pl="lg">
          {WEBHOOK_EVENT_GROUPS[group].map((name) => (
            <Checkbox
              key={name}
              size="xs"
              label={<Code>{name}</Code>}
              description={WEBHOOK_EVENT_TEXT[name]}
              checked={value.includes(name)}
              onChange={(event) => onChange(withEvent(value, name, event.currentTarget.checked))}
            />
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
};

/** The events a webhook wants, as checkboxes grouped the way the contract groups them. */
export const EventCheckboxes = ({
  value,
  onChange,
  error,
}: {
  value: WebhookEvent[];
  onChange: (events: WebhookEvent[]) => void;
  error?: string;
}) => (
  <Fieldset legend="Events" variant="unstyled">
    <Text size="sm" c="dimmed" mb="xs">
      {value.length === 0 ? 'None chosen yet.' : `${value.length} chosen.`} A delivery is sent for each one
      that happens.
    </Text>
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {GROUPS.map((group) => (
        <EventGroup key={group} group={group} value={value} onChange={onChange} />
      ))}
    </SimpleGrid>
    {error && (
      <Text c="red" size="sm" mt="xs" role="alert">
        {error}
      </Text>
    )}
  </Fieldset>
);
