import { Alert, Badge, Button, Group, Modal, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { errorWhile, type UserImportResult, type UserImportRow } from '@media/contract';
import { useRef, useState } from 'react';
import { apiFetch } from '../../api/client.ts';
import { CsvFileButton, type CsvFileButtonHandle } from '../../ui/CsvFileButton.tsx';
import { confirmCsvImport } from '../../ui/csv-import.ts';
import { inChunks, markRepeatedEmails, parseUsersCsv } from './parse-users-csv.ts';

/** spec1 §4: idle, GDPRWarning, checking, loading, ready (review), importing, imported; then a reload. */
type Step =
  | { name: 'idle' }
  | { name: 'loading' }
  | { name: 'ready'; rows: UserImportRow[]; review: UserImportResult[] }
  | { name: 'importing'; done: number; total: number }
  | { name: 'imported'; results: UserImportResult[] };

const createUsers = (siteId: number, users: UserImportRow[], dryRun: boolean) =>
  apiFetch<UserImportResult[]>('/api/users', { method: 'POST', body: { users, dryRun, siteId } });

/** Runs the rows through POST /api/users in chunks of 100, in order. */
const inBatches = async (
  siteId: number,
  rows: UserImportRow[],
  dryRun: boolean,
  progress?: (done: number) => void,
) => {
  const results: UserImportResult[] = [];
  for (const chunk of inChunks(rows)) {
    results.push(...(await createUsers(siteId, chunk, dryRun)));
    progress?.(results.length);
  }
  return results;
};

const ResultTable = ({ rows }: { rows: UserImportResult[] }) => (
  <ScrollArea.Autosize mah="60vh">
    <Table striped stickyHeader aria-label="Users to create">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Full name</Table.Th>
          <Table.Th>Company</Table.Th>
          <Table.Th>Email</Table.Th>
          <Table.Th>User name</Table.Th>
          <Table.Th>Result</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, index) => (
          // Rows have no id of their own; their place in the file is what identifies them.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
          <Table.Tr key={index}>
            <Table.Td>{row.fullname}</Table.Td>
            <Table.Td>{row.company}</Table.Td>
            <Table.Td>{row.email}</Table.Td>
            <Table.Td>{row.username}</Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Badge color={row.success ? 'green' : 'red'} variant="light" style={{ flexShrink: 0 }}>
                  {row.success ? 'OK' : 'Failed'}
                </Badge>
                <Text size="sm">{row.message}</Text>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  </ScrollArea.Autosize>
);

/** spec1 §2 / §4 / §5 Users CSV import on a site page: warnings, dry run, review, creation, result. */
export const ImportUsersFromCsv = (props: { siteId: number }) => {
  const picker = useRef<CsvFileButtonHandle>(null);
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [error, setError] = useState<string>();
  const reset = () => {
    setStep({ name: 'idle' });
    picker.current?.clear();
  };

  const chosen = async (file: File | undefined) => {
    setError(undefined);
    if (!file) return reset();
    if (!(await confirmCsvImport(file))) return reset();
    setStep({ name: 'loading' });
    const parsed = parseUsersCsv(await file.text());
    if (!parsed.ok) {
      setError(parsed.error);
      return reset();
    }
    if (parsed.rows.length === 0) {
      setError('The file holds no users');
      return reset();
    }
    try {
      setStep({
        name: 'ready',
        rows: parsed.rows,
        review: markRepeatedEmails(await inBatches(props.siteId, parsed.rows, true)),
      });
    } catch (failure) {
      setError(errorWhile(failure, 'checking the users'));
      reset();
    }
  };

  const create = async (rows: UserImportRow[]) => {
    setStep({ name: 'importing', done: 0, total: rows.length });
    try {
      const results = await inBatches(props.siteId, rows, false, (done) =>
        setStep({ name: 'importing', done, total: rows.length }),
      );
      setStep({ name: 'imported', results });
    } catch (failure) {
      setError(errorWhile(failure, 'creating the users'));
      reset();
    }
  };

  const passing = step.name === 'ready' ? step.review.filter((r) => r.success).length : 0;
  return (
    <Stack gap="xs">
      <Group>
        <CsvFileButton
          ref={picker}
          label="Import from CSV"
          fileLabel="Users CSV file"
          loading={step.name === 'loading'}
          onChosen={(file) => void chosen(file)}
        />
        <Text size="xs" c="dimmed">
          Columns fullname, company and email (username optional); imported users get a registration email.
        </Text>
      </Group>
      {error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(undefined)}>
          {error}
        </Alert>
      )}
      <Modal
        opened={step.name === 'ready' || step.name === 'importing'}
        onClose={() => step.name === 'ready' && reset()}
        title="Batch user creation"
        size="80%"
        closeOnClickOutside={false}
      >
        {step.name === 'ready' && (
          <Stack>
            <Text size="sm">
              {passing} of {step.review.length} users can be created. Rows marked Failed are left out.
            </Text>
            <ResultTable rows={step.review} />
            <Group justify="flex-end">
              <Button variant="default" onClick={reset}>
                Cancel
              </Button>
              <Button
                disabled={passing === 0}
                onClick={() => void create(step.rows.filter((_, index) => step.review[index]?.success))}
              >
                Create {passing} user{passing === 1 ? '' : 's'}
              </Button>
            </Group>
          </Stack>
        )}
        {step.name === 'importing' && (
          <Stack>
            <Text size="sm">
              Creating users: {step.done} of {step.total}
            </Text>
            <Progress value={(step.done / Math.max(step.total, 1)) * 100} animated />
          </Stack>
        )}
      </Modal>
      <Modal
        opened={step.name === 'imported'}
        onClose={() => window.location.reload()}
        title="Users created"
        size="80%"
      >
        {step.name === 'imported' && (
          <Stack>
            <ResultTable rows={step.results} />
            <Group justify="flex-end">
              <Button onClick={() => window.location.reload()}>Finish</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
};
