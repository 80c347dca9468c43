import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import {
  DIAGNOSTIC_MESSAGES,
  type Diagnostics,
  errorWhile,
  formatDateTime,
  formatDuration,
  worstState,
} from '@media/contract';
import type { ReactNode } from 'react';
import { useDiagnostics } from '../../api/diagnostics.ts';
import { Section } from '../../ui/Section.tsx';
import {
  ChecksTable,
  EdgeServersTable,
  JobsTable,
  StateBadge,
  StorageFacts,
  VersionsFacts,
} from './DiagnosticSections.tsx';

/** The states the page sums up in its overall badge: the checks, the disk, the tools, failed jobs. */
const overallState = (d: Diagnostics) =>
  worstState([
    ...d.checks.map((check) => check.status),
    d.storage.disk?.status ?? 'warning',
    d.versions.ffmpeg && d.versions.ffprobe ? 'ok' : 'error',
    d.jobs.error ? 'error' : d.jobs.queues.some((queue) => queue.failed > 0) ? 'warning' : 'ok',
  ]);

/**
 * `/diagnostic` (spec2 §1, spec3 §2 diagnostic page; administrators): what an operator checks first —
 * versions, connectivity with its times, durable jobs, storage and the edge servers — measured on each
 * load and on Refresh.
 */
export const DiagnosticPage = () => {
  const diagnostics = useDiagnostics();
  const refresh = (
    <Button
      variant="default"
      onClick={() => void diagnostics.refetch()}
      loading={diagnostics.isFetching}
      disabled={diagnostics.isPending && diagnostics.isFetching}
    >
      {DIAGNOSTIC_MESSAGES.refresh}
    </Button>
  );
  const header = (extra?: ReactNode) => (
    <Group justify="space-between" align="flex-start">
      <div>
        <Title order={2}>{DIAGNOSTIC_MESSAGES.title}</Title>
        {extra}
      </div>
      {refresh}
    </Group>
  );

  if (diagnostics.isPending)
    return (
      <Stack maw={1100}>
        {header()}
        <Group gap="sm">
          <Loader size="sm" aria-label="Loading" />
          <Text size="sm">Running the checks…</Text>
        </Group>
      </Stack>
    );
  if (diagnostics.isError && !diagnostics.data)
    return (
      <Stack maw={1100}>
        {header()}
        <Alert color="red" role="alert">
          {errorWhile(diagnostics.error)}
        </Alert>
      </Stack>
    );

  const d = diagnostics.data;
  return (
    <Stack maw={1100}>
      {header(
        <Group gap="xs">
          <StateBadge state={overallState(d)} label={`overall: ${overallState(d)}`} />
          <Text size="sm" c="dimmed" data-testid="diagnostics-measured">
            Measured {formatDateTime(new Date(d.generatedAt))} · this server up{' '}
            {formatDuration(d.uptimeSeconds) || 'just now'}
          </Text>
        </Group>,
      )}
      {diagnostics.isError && (
        <Alert color="red" role="alert">
          {errorWhile(diagnostics.error)}
        </Alert>
      )}
      <Section title="Versions" id="versions">
        <VersionsFacts versions={d.versions} />
      </Section>
      <Section title="Connectivity" id="connectivity">
        <ChecksTable checks={d.checks} />
      </Section>
      <Section title="Durable jobs" id="jobs">
        <JobsTable jobs={d.jobs} />
      </Section>
      <Section title="Storage" id="storage">
        <StorageFacts storage={d.storage} />
      </Section>
      <Section title="Edge servers" id="edge-servers">
        <EdgeServersTable edges={d.edgeServers} />
      </Section>
    </Stack>
  );
};
