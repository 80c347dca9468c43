import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { ALERT_TYPES, countAlertsByType, naturalDate } from '@media/contract';
import { ALERT_COLORS, dismissAlert, useAlerts } from './alerts.tsx';

/**
 * Counts of the alerts raised so far, by type, for the header; pressed, the alerts themselves (a count
 * with nothing behind it left people looking in the notifications, which hold the server's messages).
 */
export const AlertCounts = () => {
  const alerts = useAlerts();
  const counts = countAlertsByType(alerts);
  const shown = ALERT_TYPES.filter((type) => counts[type] > 0);
  if (shown.length === 0) return null;
  const newestFirst = [...alerts].sort((a, b) => b.refreshed - a.refreshed);
  return (
    <Popover width={420} position="bottom-end" shadow="md" withinPortal trapFocus returnFocus>
      <Popover.Target>
        <UnstyledButton aria-label={`Alerts of this session (${alerts.length})`} data-testid="alert-counts">
          <Group gap={4}>
            {shown.map((type) => (
              <Badge
                key={type}
                color={ALERT_COLORS[type]}
                variant="light"
                size="sm"
                data-testid={`alert-count-${type}`}
              >
                {counts[type]}
              </Badge>
            ))}
          </Group>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown data-testid="alerts-list">
        <Group justify="space-between" mb="xs">
          <Text fw={600} size="sm">
            Alerts of this session
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => {
              for (const alert of alerts) dismissAlert(alert.id);
            }}
          >
            Clear all
          </Button>
        </Group>
        <ScrollArea.Autosize mah={360}>
          <Stack gap="xs">
            {newestFirst.map((alert) => (
              <Group key={alert.id} justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={0}>
                  <Group gap={6} wrap="nowrap">
                    <Badge color={ALERT_COLORS[alert.type]} variant="light" size="xs">
                      {alert.type}
                    </Badge>
                    <Text size="sm">
                      {alert.text}
                      {alert.count > 1 && ` (×${alert.count})`}
                    </Text>
                  </Group>
                  <Text size="xs" c="dimmed">
                    {naturalDate(new Date(alert.refreshed))}
                  </Text>
                </Stack>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label="Dismiss"
                  onClick={() => dismissAlert(alert.id)}
                >
                  ✕
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
};
