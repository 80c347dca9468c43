import { Stack, Text } from '@mantine/core';
import type { AuditEntry } from '@media/contract';
import { useState } from 'react';
import { useOwnAuditLog } from '../../api/audit.ts';
import { AuditEntryDrawer } from './AuditEntryDrawer.tsx';
import { AuditTable } from './AuditTable.tsx';
import { useCursorPages } from './useCursorPages.ts';

/** The height of the section's table: a settings page holds other sections below it. */
const TABLE_HEIGHT = 320;

/**
 * Activity on your user (issue 33): what administrators, managers, agents and the system did to the signed-in
 * user (their own changes are not listed), newest first, each row's details in a drawer.
 */
export const OwnActivitySection = () => {
  const pages = useCursorPages();
  const log = useOwnAuditLog(pages.before);
  const [open, setOpen] = useState<AuditEntry>();
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        What other people did to your user: your details, access, password, second factor, tokens and
        sessions. Something you do not recognise? Change your password and tell an administrator.
      </Text>
      <AuditTable
        page={log.data}
        loading={log.isFetching}
        error={log.error?.message}
        pages={pages}
        onOpen={setOpen}
        emptyText="Nobody else has changed your user"
        height={TABLE_HEIGHT}
      />
      <AuditEntryDrawer entry={open} onClose={() => setOpen(undefined)} />
    </Stack>
  );
};
