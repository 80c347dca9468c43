import { Badge, Group, Tooltip } from '@mantine/core';
import { ALERT_TYPES, countAlertsByType } from '@media/contract';
import { ALERT_COLORS, useAlerts } from './alerts.tsx';

/** Counts of the alerts raised so far, by type, for the header. */
export const AlertCounts = () => {
  const counts = countAlertsByType(useAlerts());
  const shown = ALERT_TYPES.filter((type) => counts[type] > 0);
  if (shown.length === 0) return null;
  return (
    <Group gap={4} data-testid="alert-counts">
      {shown.map((type) => (
        <Tooltip
          key={type}
          label={`${counts[type]} ${type} alert${counts[type] === 1 ? '' : 's'}`}
          openDelay={1000}
        >
          <Badge color={ALERT_COLORS[type]} variant="light" size="sm" data-testid={`alert-count-${type}`}>
            {counts[type]}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
};
