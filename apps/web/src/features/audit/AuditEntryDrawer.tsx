import { Badge, Button, Code, Drawer, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { type AuditEntry, formatDateTime } from '@media/contract';
import type { ReactNode } from 'react';
import { OutcomeBadge } from './AuditTable.tsx';
import { type ActivityFilter, actorLabel, targetLabel, VIA_LABELS } from './activity-filter.ts';

const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Stack gap={0}>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
      {children || '—'}
    </Text>
  </Stack>
);

/** The fields a change sent: a secret's value was never kept; an object's is not shown. */
const Fields = ({ fields }: { fields: AuditEntry['fields'] }) =>
  fields.length === 0 ? (
    <Text size="sm" c="dimmed">
      No fields were sent.
    </Text>
  ) : (
    <Table striped withTableBorder data-testid="activity-fields">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Value</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.map((field) => (
          <Table.Tr key={field.name}>
            <Table.Td>
              <Code>{field.name}</Code>
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-word' }}>
              {field.secret ? (
                <Badge variant="light" color="gray">
                  secret, not kept
                </Badge>
              ) : field.value === null ? (
                <Text size="sm" c="dimmed">
                  not shown
                </Text>
              ) : (
                field.value
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );

/**
 * One row of the audit log in full: who, as what and through what, the operation, its target and account,
 * the fields it sent, the address and request id, the outcome. On the Activity page it narrows the list to
 * the row's actor, operation or target.
 */
export const AuditEntryDrawer = (props: {
  entry: AuditEntry | undefined;
  onClose: () => void;
  onFilter?: (filter: ActivityFilter) => void;
}) => {
  const { entry, onFilter } = props;
  return (
    <Drawer
      opened={entry !== undefined}
      onClose={props.onClose}
      position="right"
      size="lg"
      title={entry ? <Text fw={600}>{entry.operation}</Text> : undefined}
    >
      {entry && (
        <Stack gap="md" data-testid="activity-details">
          <SimpleGrid cols={2} spacing="sm">
            <Fact label="Time">{formatDateTime(new Date(entry.at))}</Fact>
            <Fact label="Outcome">
              <OutcomeBadge entry={entry} />
            </Fact>
            <Fact label="Actor">{actorLabel(entry)}</Fact>
            <Fact label="As">{entry.actingRole}</Fact>
            <Fact label="Through">{entry.via ? VIA_LABELS[entry.via] : ''}</Fact>
            <Fact label="Target">{targetLabel(entry)}</Fact>
            <Fact label="Account">
              {entry.accountName ?? (entry.accountId ? `#${entry.accountId} (gone)` : '')}
            </Fact>
            {entry.ip !== null && <Fact label="Address">{entry.ip}</Fact>}
            <Fact label="Request id">{entry.requestId ? <Code>{entry.requestId}</Code> : ''}</Fact>
          </SimpleGrid>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Fields sent
            </Text>
            <Fields fields={entry.fields} />
          </Stack>
          {onFilter && (
            <Group gap="xs">
              {entry.actorName && (
                <Button
                  variant="light"
                  size="xs"
                  onClick={() => onFilter({ actor: entry.actorName ?? undefined })}
                >
                  Only this actor
                </Button>
              )}
              <Button variant="light" size="xs" onClick={() => onFilter({ operation: entry.operation })}>
                Only this operation
              </Button>
              {entry.targetType && entry.targetId && (
                <Button
                  variant="light"
                  size="xs"
                  onClick={() =>
                    onFilter({
                      targetType: entry.targetType ?? undefined,
                      targetId: entry.targetId ?? undefined,
                    })
                  }
                >
                  Only this target
                </Button>
              )}
            </Group>
          )}
        </Stack>
      )}
    </Drawer>
  );
};
