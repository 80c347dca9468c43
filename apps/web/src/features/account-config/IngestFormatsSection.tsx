import { ActionIcon, Alert, Button, Group, Loader, Select, Stack, Table, Text } from '@mantine/core';
import {
  ASPECTS,
  type Aspect,
  CHANNELS,
  DEFAULT_MAX_INGEST_RESOLUTION,
  errorWhile,
  FRAME_RATE_STANDARD_ORDER,
  FRAME_RATE_STANDARDS,
  type FrameRateStandard,
  INGEST_FORMATS_MAX,
  type IngestFormat,
  ingestFormatsProblem,
  MSG_INGEST_FORMATS_SAVED,
  NEW_INGEST_FORMAT,
  offeredResolutions,
  type ProxyResolution,
  packIngestFormat,
  resolutionsFor,
  unpackIngestFormat,
} from '@media/contract';
import { useEffect, useState } from 'react';
import { ingestFormatsKey, useIngestFormats, useSaveIngestFormats } from '../../api/account-config.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { notify } from '../../ui/notify.tsx';
import { SaveChangesButtons } from '../../ui/SaveChangesButtons.tsx';
import { markDirty } from '../../ui/unsaved-changes.tsx';

const STANDARD_CHOICES = FRAME_RATE_STANDARD_ORDER.map((standard) => ({
  value: standard,
  label: /^\d/.test(standard) ? `${standard} fps` : `${standard} (${FRAME_RATE_STANDARDS[standard]} fps)`,
}));
const ASPECT_CHOICES = (Object.keys(ASPECTS) as Aspect[]).map((aspect) => ({
  value: aspect,
  label: `${aspect} (${ASPECTS[aspect]})`,
}));
/** The offered resolutions, plus the row's own when it is above the max (a list saved with a higher max). */
const resolutionChoices = (aspect: Aspect, max: number, current: ProxyResolution) => {
  const offered: readonly ProxyResolution[] = offeredResolutions(aspect, max);
  return (offered.includes(current) ? offered : [...offered, current]).map((r) => ({
    value: r,
    label: r === 'standard' ? 'standard' : `${r}p`,
  }));
};

/** A row with a stable key, so removing one does not move the others' selects. */
type Row = IngestFormat & { key: number };
let nextKey = 1;
const toRows = (stored: string[]): Row[] =>
  stored.map((s) => ({ ...unpackIngestFormat(s).format, key: nextKey++ }));

/**
 * spec1 §2 Ingest formats: frame rate, aspect ratio and proxy resolution per row; Add format, Save
 * Changes, Discard Changes; Save is on after any change and off again once saved.
 */
export const IngestFormatsSection = ({
  accountId,
  canManage,
  maxResolution = DEFAULT_MAX_INGEST_RESOLUTION,
}: {
  accountId: number;
  canManage: boolean;
  maxResolution?: number;
}) => {
  const formats = useIngestFormats(accountId);
  useLiveRefresh(CHANNELS.ingestFormats(accountId), ingestFormatsKey(accountId));
  const save = useSaveIngestFormats(accountId);
  const [rows, setRows] = useState<Row[] | undefined>();
  const [dirty, setDirty] = useState(false);

  useEffect(() => {
    if (formats.data && !dirty) setRows(toRows(formats.data));
  }, [formats.data, dirty]);
  useEffect(() => {
    const id = `ingest-formats-${accountId}`;
    markDirty(id, dirty);
    return () => markDirty(id, false);
  }, [dirty, accountId]);

  if (formats.isPending) return <Loader size="sm" aria-label="Loading ingest formats" />;
  if (formats.isError)
    return (
      <Alert color="red" role="alert">
        {errorWhile(formats.error, 'loading the ingest formats')}
      </Alert>
    );
  const current = rows ?? [];
  const packed = current.map(packIngestFormat);
  const problem = ingestFormatsProblem(packed);

  const change = (key: number, patch: Partial<IngestFormat>) => {
    setRows(
      current.map((row) => {
        if (row.key !== key) return row;
        const next = { ...row, ...patch };
        // A resolution the new aspect does not have (portrait against landscape) goes back to standard.
        if (patch.aspect && !resolutionsFor(next.aspect).includes(next.resolution))
          next.resolution = 'standard';
        return next;
      }),
    );
    setDirty(true);
  };
  const submit = async () => {
    try {
      const saved = await save.mutateAsync(packed);
      setRows(toRows(saved));
      setDirty(false);
      notify({ type: 'success', text: MSG_INGEST_FORMATS_SAVED });
    } catch (error) {
      showAlert({
        type: 'danger',
        text: errorWhile(error, 'saving the ingest formats'),
        source: 'ingest-formats',
      });
    }
  };

  return (
    <Stack gap="sm">
      {current.length === 0 ? (
        <Text c="dimmed" size="sm">
          No ingest formats: uploads use the site's.
        </Text>
      ) : (
        <Table verticalSpacing={4} aria-label="Ingest formats">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Frame rate</Table.Th>
              <Table.Th>Aspect ratio</Table.Th>
              <Table.Th>Proxy resolution</Table.Th>
              {canManage && <Table.Th w={40} aria-label="Remove" />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {current.map((row, index) => (
              <Table.Tr key={row.key}>
                <Table.Td>
                  <Select
                    size="xs"
                    aria-label={`Frame rate of format ${index + 1}`}
                    data={STANDARD_CHOICES}
                    value={row.standard}
                    allowDeselect={false}
                    disabled={!canManage}
                    onChange={(v) => v && change(row.key, { standard: v as FrameRateStandard })}
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    aria-label={`Aspect ratio of format ${index + 1}`}
                    data={ASPECT_CHOICES}
                    value={row.aspect}
                    allowDeselect={false}
                    disabled={!canManage}
                    onChange={(v) => v && change(row.key, { aspect: v as Aspect })}
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    aria-label={`Proxy resolution of format ${index + 1}`}
                    data={resolutionChoices(row.aspect, maxResolution, row.resolution)}
                    value={row.resolution}
                    allowDeselect={false}
                    disabled={!canManage}
                    onChange={(v) => v && change(row.key, { resolution: v as ProxyResolution })}
                  />
                </Table.Td>
                {canManage && (
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove format ${index + 1}`}
                      onClick={() => {
                        setRows(current.filter((r) => r.key !== row.key));
                        setDirty(true);
                      }}
                    >
                      ×
                    </ActionIcon>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {problem && dirty && (
        <Text c="red" size="sm" role="alert">
          {problem}
        </Text>
      )}
      {canManage && (
        <Group justify="space-between">
          <Button
            variant="light"
            disabled={current.length >= INGEST_FORMATS_MAX}
            onClick={() => {
              setRows([...current, { ...NEW_INGEST_FORMAT, key: nextKey++ }]);
              setDirty(true);
            }}
          >
            Add format
          </Button>
          <SaveChangesButtons
            dirty={dirty}
            valid={!problem}
            saving={save.isPending}
            onSave={submit}
            onDiscard={() => {
              setDirty(false);
              setRows(toRows(formats.data));
            }}
          />
        </Group>
      )}
    </Stack>
  );
};
