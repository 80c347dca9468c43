import { Stack, Text, Title } from '@mantine/core';
import { ManagersTable } from './ManagersTable.tsx';

/** Administrators: the users with the admin right (the last one cannot be removed). */
export const AdminManagersPage = () => (
  <Stack>
    <div>
      <Title order={2}>Administrators</Title>
      <Text size="sm" c="dimmed">
        Administrators may do everything in this cloud.
      </Text>
    </div>
    <ManagersTable type="admin" canadd="True" candelete="True" canremoveself="False" />
  </Stack>
);
