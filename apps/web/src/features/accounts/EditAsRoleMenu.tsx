import { Button, Menu } from '@mantine/core';
import type { Account } from '@media/contract';
import { useNavigate } from 'react-router';
import { useAccountRoles, useLaunchAccount } from '../../api/accounts.ts';
import { showAlert } from '../../ui/alerts.tsx';

/** spec1 §2 Edit-role dropdown: the site's roles by name; choosing one launches the editor as that role. */
export const EditAsRoleMenu = ({ account }: { account: Account }) => {
  const roles = useAccountRoles(account.siteId);
  const launch = useLaunchAccount(account.id);
  const navigate = useNavigate();
  const editAs = async (roleId: number) => {
    try {
      const { url } = await launch.mutateAsync(roleId);
      await navigate(url);
    } catch (error) {
      showAlert({
        type: 'danger',
        text: error instanceof Error ? error.message : String(error),
        source: 'launch',
      });
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button loading={launch.isPending}>Edit as role</Button>
      </Menu.Target>
      <Menu.Dropdown>
        {roles.isPending && <Menu.Label>Loading roles…</Menu.Label>}
        {roles.isError && <Menu.Label c="red">Roles could not be loaded: {roles.error.message}</Menu.Label>}
        {roles.data?.length === 0 && <Menu.Label>No roles on this site</Menu.Label>}
        {roles.data?.map((role) => (
          <Menu.Item key={role.id} onClick={() => void editAs(role.id)}>
            {role.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
};
