import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Modal,
  ScrollArea,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import {
  errorText,
  METADATA_MESSAGES,
  type MetadataExportFormat,
  type MetadataImportResult,
  type MetadataImportSummary,
} from '@media/contract';
import { useRef, useState } from 'react';
import { apiFetch } from '../../api/client.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { CsvFileButton, type CsvFileButtonHandle } from '../../ui/CsvFileButton.tsx';
import { confirmCsvImport } from '../../ui/csv-import.ts';

/** spec1 §4 CSV metadata import: idle, GDPRWarning, checking, loading (dry run), ready, importing, imported. */
type Step =
  | { name: 'idle' | 'GDPRWarning' | 'checking' | 'loading' | 'importing' | 'imported' }
  | { name: 'ready'; csv: string; summary: MetadataImportSummary };

export const metadataExportUrl = (accountId: number, format: MetadataExportFormat) =>
  `/api/media?format=${format}&accountId=${accountId}&metadata=`;

const sendImport = (accountId: number, csv: string, dryRun: boolean) =>
  apiFetch<MetadataImportResult>(`/api/mediaUpdate?format=json&accountId=${accountId}&dryRun=${dryRun}`, {
    method: 'POST',
    text: { content: csv, contentType: 'text/csv' },
    apiVersion: 'mediaUpdate',
  });

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** What the dry run found: counts, the changes node by node, and what the file holds that is not used. */
const ImportSummary = ({ summary }: { summary: MetadataImportSummary }) => (
  <Stack gap="sm">
    <Text size="sm" fw={600}>
      {METADATA_MESSAGES.confirm}
    </Text>
    <Text size="sm">
      {plural(summary.changes, 'field')} of {plural(summary.nodes, 'media node')} change (
      {summary.columns.map((column) => `${column.column}: ${column.changes}`).join(', ')}); the file has{' '}
      {plural(summary.rows, 'row')}.
    </Text>
    {(summary.unknownNodeCount > 0 ||
      summary.unknownColumns.length > 0 ||
      summary.readOnlyColumns.length > 0) && (
      <Alert color="yellow" title="Not imported">
        <List size="sm">
          {summary.unknownNodeCount > 0 && (
            <List.Item>
              {plural(summary.unknownNodeCount, 'row')} name no media of this account (rows{' '}
              {summary.unknownNodes.map((unknown) => unknown.row).join(', ')}
              {summary.unknownNodeCount > summary.unknownNodes.length ? ', …' : ''})
            </List.Item>
          )}
          {summary.unknownColumns.length > 0 && (
            <List.Item>Columns that are not metadata columns: {summary.unknownColumns.join(', ')}</List.Item>
          )}
          {summary.readOnlyColumns.length > 0 && (
            <List.Item>Columns that may not be edited: {summary.readOnlyColumns.join(', ')}</List.Item>
          )}
        </List>
      </Alert>
    )}
    <ScrollArea.Autosize mah="60vh">
      <Table striped stickyHeader aria-label="Metadata changes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Media</Table.Th>
            <Table.Th>Column</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>To</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.changed.flatMap((node) =>
            node.changes.map((change) => (
              <Table.Tr key={`${node.id}:${change.column}`}>
                <Table.Td>{node.path}</Table.Td>
                <Table.Td>{change.column}</Table.Td>
                <Table.Td>
                  {change.from === '' ? (
                    <Text span size="sm" c="dimmed">
                      empty
                    </Text>
                  ) : (
                    change.from
                  )}
                </Table.Td>
                <Table.Td>
                  {change.to === '' ? (
                    <Badge color="gray" variant="light">
                      removed
                    </Badge>
                  ) : (
                    change.to
                  )}
                </Table.Td>
              </Table.Tr>
            )),
          )}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
    {summary.changed.length < summary.nodes && (
      <Text size="xs" c="dimmed">
        The first {summary.changed.length} of {summary.nodes} media nodes are listed.
      </Text>
    )}
  </Stack>
);

/** spec1 §2 Metadata import/export of an account, for its managers. */
export const MetadataTransferSection = ({ accountId }: { accountId: number }) => {
  const picker = useRef<CsvFileButtonHandle>(null);
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const reset = () => {
    setStep({ name: 'idle' });
    picker.current?.clear();
  };
  const fail = (message: string) => {
    showAlert({ text: message, type: 'danger', permanent: true });
    reset();
  };

  const chosen = async (file: File | undefined) => {
    if (!file) return reset();
    setStep({ name: 'GDPRWarning' });
    if (!(await confirmCsvImport(file))) return reset();
    setStep({ name: 'loading' });
    const csv = await file.text();
    let answer: MetadataImportResult;
    try {
      answer = await sendImport(accountId, csv, true);
    } catch (failure) {
      return fail(METADATA_MESSAGES.failedRequest(true, errorText(failure)));
    }
    if (answer.status === 'no changes') {
      showAlert({ text: METADATA_MESSAGES.noChanges, type: 'info' });
      return reset();
    }
    if (answer.status !== 'dry run') return fail(METADATA_MESSAGES.unexpectedStatus(true, answer.status));
    setStep({ name: 'ready', csv, summary: answer.summary });
  };

  const importNow = async (csv: string) => {
    setStep({ name: 'importing' });
    let answer: MetadataImportResult;
    try {
      answer = await sendImport(accountId, csv, false);
    } catch (failure) {
      return fail(METADATA_MESSAGES.failedRequest(false, errorText(failure)));
    }
    if (answer.status !== 'done') return fail(METADATA_MESSAGES.unexpectedStatus(false, answer.status));
    setStep({ name: 'imported' });
    showAlert({ text: METADATA_MESSAGES.complete, type: 'success' });
    reset();
  };

  const busy = step.name !== 'idle' && step.name !== 'ready';
  return (
    <Stack gap="sm" data-import-state={step.name}>
      <Group gap="lg">
        <Text size="sm" fw={600}>
          Export
        </Text>
        <Anchor href={metadataExportUrl(accountId, 'xlsx')} download>
          Download xlsx (Excel)
        </Anchor>
        <Anchor href={metadataExportUrl(accountId, 'csv')} download>
          Download csv
        </Anchor>
      </Group>
      <Group gap="lg">
        <Text size="sm" fw={600}>
          Import
        </Text>
        <CsvFileButton
          ref={picker}
          label="Import from csv"
          fileLabel="Metadata CSV file"
          loading={busy}
          onChosen={(file) => void chosen(file)}
        />
        <Text size="xs" c="dimmed">
          Edit a downloaded csv and import it: the columns marked editable change; Id or Path says which
          media.
        </Text>
      </Group>
      <Modal
        opened={step.name === 'ready' || step.name === 'importing'}
        onClose={() => step.name === 'ready' && reset()}
        title="Metadata import"
        size="80%"
        closeOnClickOutside={false}
      >
        {step.name === 'ready' && (
          <Stack>
            <ImportSummary summary={step.summary} />
            <Group justify="flex-end">
              <Button variant="default" onClick={reset}>
                Cancel
              </Button>
              <Button onClick={() => void importNow(step.csv)}>Import</Button>
            </Group>
          </Stack>
        )}
        {step.name === 'importing' && <Text size="sm">Importing…</Text>}
      </Modal>
    </Stack>
  );
};
