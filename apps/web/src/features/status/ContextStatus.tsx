import {
  Anchor,
  Badge,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import {
  type Account,
  STATUS_WIDGET_MESSAGES,
  type StatusWidgetRow,
  statusFetchFailed,
  statusProblemCount,
  statusWidgetRows,
} from '@media/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAccountByName } from '../../api/accounts.ts';
import { useAccountById } from '../../api/arrivals.ts';
import { ApiError } from '../../api/client.ts';
import { useSite, useSitePermissions } from '../../api/organisation.ts';
import { type StatusContext, useStatus } from '../../api/status.ts';
import type { PageContext } from './StatusPopover.tsx';

const COLOURS: Record<string, string> = { ok: 'green', error: 'red', warning: 'yellow', disabled: 'gray' };

const StatusRow = ({ item, depth, within }: StatusWidgetRow) => {
  // Services and endpoints open their own page; the edge server's when there is none.
  const link =
    item.type === 'EdgeServer' ? item.links.edgeServer : (item.links.service ?? item.links.edgeServer);
  return (
    <Stack gap={0} pl={depth * 16} data-testid="status-item" data-type={item.type} data-depth={depth}>
      <Group gap="xs" wrap="nowrap">
        <Badge size="xs" variant="light" color={COLOURS[item.status] ?? 'gray'}>
          {item.status}
        </Badge>
        {link ? (
          <Anchor component={Link} to={link} size="sm" fw={500}>
            {item.name}
          </Anchor>
        ) : (
          <Text size="sm" fw={500}>
            {item.name}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {item.type}
          {within.length > 0 && ` in ${within.join(' › ')}`}
        </Text>
      </Group>
      <Text size="xs" c={item.status === 'error' ? 'red' : 'dimmed'}>
        {item.message}
      </Text>
    </Stack>
  );
};

/** The status of a known context: a button with the count of problems, and the popover of spec1 §2/§4. */
const ContextStatus = ({ context, label }: { context: StatusContext; label: string }) => {
  const status = useStatus(context);
  const [showAll, setShowAll] = useState(false);
  // Only those who manage the account or site see its status; for others there is no button.
  if (status.error instanceof ApiError && [403, 404].includes(status.error.status)) return null;
  const items = status.data ?? [];
  const problems = statusProblemCount(items);
  const rows = statusWidgetRows(items, showAll);
  return (
    <Popover width={420} position="bottom-end" shadow="md" withinPortal trapFocus returnFocus>
      {/* The count is drawn around the target: the button carries the popup's ARIA, not the drawing. */}
      <Indicator label={problems} size={16} color="red" disabled={problems === 0} data-testid="status-count">
        <Popover.Target>
          <Button variant="subtle" size="xs" aria-label={`Status (${problems} problems)`}>
            Status
          </Button>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown data-testid="status-popover">
        <Group justify="space-between" mb="xs">
          <Text fw={600} size="sm">
            Status of {label}
          </Text>
          <Switch
            size="xs"
            checked={showAll}
            onChange={(event) => setShowAll(event.currentTarget.checked)}
            label={showAll ? STATUS_WIDGET_MESSAGES.hideExpected : STATUS_WIDGET_MESSAGES.showAll}
          />
        </Group>
        {status.isPending ? (
          <Text size="sm" c="dimmed">
            {STATUS_WIDGET_MESSAGES.loading}
          </Text>
        ) : status.isError ? (
          <Text size="sm" c="red" role="alert">
            {statusFetchFailed(
              context.kind,
              status.error instanceof ApiError ? status.error.status : '',
              status.error.message,
            )}
          </Text>
        ) : !showAll && problems === 0 ? (
          <Text size="sm" c="green" data-testid="status-all-ok">
            {STATUS_WIDGET_MESSAGES.allOk}
          </Text>
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No edge servers, services or endpoints here
          </Text>
        ) : (
          <ScrollArea.Autosize mah={400}>
            <Stack gap="xs">
              {rows.map((row) => (
                <StatusRow
                  key={`${row.item.type}|${row.item.name}|${row.item.links.edgeServer ?? ''}|${row.item.links.service ?? ''}`}
                  {...row}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
};

/** Only those who manage the account see its status (spec1 §2): for others there is no button, and no call. */
const AccountStatus = ({ account }: { account: Account | undefined }) =>
  account?.access.canManage ? (
    <ContextStatus context={{ kind: 'account', id: account.id }} label={account.name} />
  ) : null;

const AccountByNameStatus = ({ name }: { name: string }) => (
  <AccountStatus account={useAccountByName(name).data} />
);
const AccountByIdStatus = ({ id }: { id: number }) => <AccountStatus account={useAccountById(id).data} />;
const SiteStatus = ({ id }: { id: number }) => {
  const site = useSite(id);
  const may = useSitePermissions(id);
  return site.data && may.data?.canManage ? (
    <ContextStatus context={{ kind: 'site', id }} label={site.data.name} />
  ) : null;
};

/** The status button of the page's account or site; nothing for those who may not see it. */
export const PageStatus = ({ context }: { context: PageContext }) => {
  if (context.kind === 'accountName') return <AccountByNameStatus name={context.name} />;
  return context.kind === 'account' ? <AccountByIdStatus id={context.id} /> : <SiteStatus id={context.id} />;
};
