import { Alert, Button, Group, Loader, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { type MediaNode, NODE_MESSAGES } from '@media/contract';
import { useState } from 'react';
import { useAccountRoles } from '../../api/account-access.ts';
import { useNodeMutations } from '../../api/nodes.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { useReturnFocusOnUnmount } from '../../ui/useReturnFocus.ts';
import {
  PERMISSION_OPTIONS,
  type PermissionChoice,
  permissionChoices,
  permissionsPayload,
} from './folder-permissions.ts';

/** spec3 §2 / §6: what each role of the account's site may do in this folder and below; Save sends them. */
export const PermissionsDialog = ({
  folder,
  siteId,
  onClose,
}: {
  folder: MediaNode;
  siteId: number | undefined;
  onClose: () => void;
}) => {
  useReturnFocusOnUnmount();
  const roles = useAccountRoles(siteId);
  return (
    <Modal opened onClose={onClose} title={`Folder permissions of ${folder.name}`} centered size="lg">
      {roles.isPending && <Loader size="sm" aria-label="Loading roles" />}
      {roles.isError && (
        <Alert color="red" role="alert">
          {NODE_MESSAGES.fetchFailed(roles.error.message)}
        </Alert>
      )}
      {roles.data && <PermissionsForm folder={folder} roles={roles.data} onClose={onClose} />}
    </Modal>
  );
};

const PermissionsForm = ({
  folder,
  roles,
  onClose,
}: {
  folder: MediaNode;
  roles: { id: number; name: string }[];
  onClose: () => void;
}) => {
  const [choices, setChoices] = useState(() => permissionChoices(roles, folder.permissions));
  const { savePermissions } = useNodeMutations();

  const save = async () => {
    try {
      await savePermissions.mutateAsync({
        path: folder.path,
        permissions: permissionsPayload(roles, choices),
      });
      showAlert({ type: 'success', text: NODE_MESSAGES.permissionsSaved(folder.path), source: 'nodes' });
      onClose();
    } catch (error) {
      showAlert({
        type: 'danger',
        text: error instanceof Error ? error.message : String(error),
        source: 'nodes',
      });
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        A role with no entry inherits from the folders above; Hidden hides the folder and everything in it.
      </Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Role</Table.Th>
            <Table.Th>Access</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {roles.map((role) => (
            <Table.Tr key={role.id}>
              <Table.Td>{role.name}</Table.Td>
              <Table.Td>
                <Select
                  aria-label={`Access of ${role.name}`}
                  size="xs"
                  data={PERMISSION_OPTIONS}
                  allowDeselect={false}
                  value={choices[role.id]}
                  onChange={(next) => next && setChoices({ ...choices, [role.id]: next as PermissionChoice })}
                  comboboxProps={{ withinPortal: true }}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button loading={savePermissions.isPending} onClick={() => void save()}>
          Save
        </Button>
      </Group>
    </Stack>
  );
};
