import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { AuditEntry } from '@media/contract';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { auditExportUrl, useAuditLog } from '../../api/audit.ts';
import { ActivityFilters } from './ActivityFilters.tsx';
import { AuditEntryDrawer } from './AuditEntryDrawer.tsx';
import { AuditTable } from './AuditTable.tsx';
import { type ActivityFilter, auditQueryOf, filterFromSearch, searchOfFilter } from './activity-filter.ts';
import { useCursorPages } from './useCursorPages.ts';

/**
 * Activity (issue 33): who changed what, newest first, for administrators (everything) and managers (their
 * resellers, site groups, sites and accounts): filtered by actor, operation, target, account and period (kept
 * in the address), paged by time, a row's details in a drawer, the filtered rows as CSV.
 */
export const ActivityPage = () => {
  const [search, setSearch] = useSearchParams();
  const filter = useMemo(() => filterFromSearch(search), [search]);
  const query = useMemo(() => auditQueryOf(filter), [filter]);
  const pages = useCursorPages();
  const log = useAuditLog(query, pages.before);
  const [open, setOpen] = useState<AuditEntry>();

  const apply = (next: ActivityFilter) => {
    pages.reset();
    setOpen(undefined);
    setSearch(searchOfFilter(next));
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Activity</Title>
          <Text c="dimmed" size="sm">
            Every change made in your part of the cloud: who made it, how, and whether it worked. Secrets are
            never kept.
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="default" loading={log.isFetching} onClick={() => void log.refetch()}>
            Refresh
          </Button>
          <Button component="a" href={auditExportUrl(query)} download variant="light">
            Export CSV
          </Button>
        </Group>
      </Group>
      <ActivityFilters value={filter} onApply={apply} />
      <AuditTable
        page={log.data}
        loading={log.isFetching}
        error={log.error?.message}
        pages={pages}
        onOpen={setOpen}
        withAccount
        emptyText={Object.keys(filter).length ? 'Nothing matches these filters' : 'No activity yet'}
      />
      <AuditEntryDrawer entry={open} onClose={() => setOpen(undefined)} onFilter={apply} />
    </Stack>
  );
};
