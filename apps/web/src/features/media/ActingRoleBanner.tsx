import { Alert, Button, Group, Text } from '@mantine/core';
import { NODE_MESSAGES } from '@media/contract';
import { useLaunchAccount } from '../../api/accounts.ts';
import { showAlert } from '../../ui/alerts.tsx';

/**
 * Edit as role (issue 6 item 9): while the session acts as a role of the account the tree shows what that
 * role sees; Reset role launches the account again without a role, back to the user's own rights.
 */
export const ActingRoleBanner = ({
  accountId,
  role,
  onReset,
}: {
  accountId: number;
  role: { id: number; name: string };
  onReset: () => void;
}) => {
  const launch = useLaunchAccount(accountId);
  const reset = async () => {
    try {
      await launch.mutateAsync(undefined);
      showAlert({ type: 'info', text: NODE_MESSAGES.roleReset, source: 'nodes' });
      onReset();
    } catch (error) {
      showAlert({
        type: 'danger',
        text: error instanceof Error ? error.message : String(error),
        source: 'launch',
      });
    }
  };
  return (
    <Alert color="violet" variant="light" role="status" aria-label="Acting role" py="xs">
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={500}>
          {NODE_MESSAGES.actingAs(role.name)}
        </Text>
        <Button
          size="xs"
          variant="white"
          color="violet"
          loading={launch.isPending}
          onClick={() => void reset()}
        >
          Reset role
        </Button>
      </Group>
    </Alert>
  );
};
