import { Badge } from '@mantine/core';

/** Whether an account, site or other organisation entry is in use: Active, or Disabled. */
export const ActiveBadge = ({ disabled }: { disabled: boolean }) =>
  disabled ? (
    <Badge color="gray" variant="light">
      Disabled
    </Badge>
  ) : (
    <Badge color="teal" variant="light">
      Active
    </Badge>
  );
