import { Button } from '@mantine/core';

/**
 * A row's destructive action in a table (end a session, revoke a token, unlink a sign-in): small, red,
 * quiet until pointed at; busy while its own row's request runs. The caller confirms before acting.
 */
export const RowDangerButton = ({
  label,
  ariaLabel,
  busy,
  onClick,
}: {
  label: string;
  ariaLabel: string;
  busy: boolean;
  onClick: () => void;
}) => (
  <Button
    size="compact-sm"
    color="red"
    variant="subtle"
    aria-label={ariaLabel}
    loading={busy}
    onClick={onClick}
  >
    {label}
  </Button>
);
