import { Alert, Button, Code, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { type AlertType, errorWhile, formatTableDate, type PublishHelpOptions } from '@media/contract';
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { getPublishHelp, postPublishHelp, usePublishItem, useRepublish } from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { centredPopupFeatures } from '../../ui/dynamic-form/form-state.ts';
import { reasonOf, screenBox } from '../../ui/dynamic-form/server-actions.ts';
import { PublishStatusBadge } from './PublishedItems.tsx';
import { followPublishHelp } from './publish-help.ts';

const ALERT_COLORS: Record<AlertType, string> = {
  danger: 'red',
  warning: 'yellow',
  success: 'teal',
  info: 'blue',
};

type HelpState =
  | { kind: 'asking' }
  | { kind: 'message'; text: string; type: AlertType }
  | { kind: 'open-url'; url: string; opened: boolean }
  | { kind: 'none' };

/** spec3 §4 open-url: a popup centred on the screen; null when the browser blocked it. */
const openPopup = (url: string) => window.open(url, '_blank', centredPopupFeatures(screenBox()));

/**
 * `/publishes/{id}/help` (spec2 page area "publish help", spec3 §2 publish-help message screen): what a
 * published item needs, asked of the server and followed through its set-options steps; a consent screen
 * opens in a centred popup, and Continue carries on once the person is back.
 */
export const PublishHelpPage = () => {
  const id = Number(useParams().publishId);
  const item = usePublishItem(id);
  const republish = useRepublish();
  const [help, setHelp] = useState<HelpState>({ kind: 'asking' });
  const [options, setOptions] = useState<PublishHelpOptions>({});

  const ask = useCallback(
    async (first: () => Promise<unknown>, from: PublishHelpOptions) => {
      setHelp({ kind: 'asking' });
      try {
        const outcome = await followPublishHelp(first(), (next) => postPublishHelp(id, next), from);
        if (outcome.kind === 'unexpected') {
          showAlert({ type: 'danger', text: outcome.message, source: 'publishing' });
          setHelp({ kind: 'message', text: outcome.message, type: 'danger' });
          return;
        }
        setOptions(outcome.options);
        const { action } = outcome;
        if (action.action === 'open-url')
          setHelp({ kind: 'open-url', url: action.url, opened: openPopup(action.url) !== null });
        else if (action.action === 'display-message') {
          showAlert({ type: action.type, text: action.message, source: 'publishing' });
          setHelp({ kind: 'message', text: action.message, type: action.type });
        } else setHelp({ kind: 'none' });
      } catch (error) {
        const text = errorWhile(reasonOf(error), 'asking for help');
        showAlert({ type: 'danger', text, source: 'publishing' });
        setHelp({ kind: 'message', text, type: 'danger' });
      }
    },
    [id],
  );

  useEffect(() => {
    if (Number.isInteger(id) && id > 0) void ask(() => getPublishHelp(id), {});
  }, [id, ask]);

  const again = async () => {
    try {
      const next = await republish.mutateAsync(id);
      showAlert({ type: 'success', text: `Publishing again as item ${next.id}`, source: 'publishing' });
    } catch (error) {
      showAlert({ type: 'warning', text: reasonOf(error), source: 'publishing' });
    }
  };

  const publish = item.data;
  return (
    <Stack maw={900} gap="md">
      <Title order={2}>Help for published item {Number.isInteger(id) ? id : ''}</Title>
      {item.isPending && <Loader size="sm" aria-label="Loading the published item" />}
      {item.error && (
        <Alert color="red">{errorWhile(reasonOf(item.error), 'fetching the published item')}</Alert>
      )}
      {publish && (
        <Stack gap={4} aria-label="Published item">
          <Group gap="xs">
            <PublishStatusBadge item={publish} />
            <Text size="sm" c="dimmed">
              Published {formatTableDate(new Date(publish.createdTime))}
              {publish.finishedTime && `, finished ${formatTableDate(new Date(publish.finishedTime))}`}
            </Text>
          </Group>
          {publish.error && (
            <Text size="sm" c="red">
              {publish.error}
            </Text>
          )}
          {publish.outputs.map((output) => (
            <Text key={`${output.moduleId}-${output.location}`} size="sm">
              {output.location}
            </Text>
          ))}
        </Stack>
      )}

      {!item.error && (
        <Stack gap="xs" aria-label="Help">
          {help.kind === 'asking' && (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">Asking the server what this item needs…</Text>
            </Group>
          )}
          {help.kind === 'message' && (
            <Alert color={ALERT_COLORS[help.type]} role="status">
              {help.text}
            </Alert>
          )}
          {help.kind === 'open-url' && (
            <Alert color="blue" title="Sign in with the service">
              <Stack gap="xs">
                <Text size="sm">
                  {help.opened
                    ? 'The sign-in window is open. When you have agreed there, come back and continue.'
                    : 'Your browser blocked the sign-in window: open it, agree there, then come back and continue.'}
                </Text>
                <Group gap="xs">
                  <Button size="xs" variant="default" onClick={() => openPopup(help.url)}>
                    Open the sign-in window
                  </Button>
                  <Button size="xs" onClick={() => void ask(() => postPublishHelp(id, options), options)}>
                    Continue
                  </Button>
                </Group>
              </Stack>
            </Alert>
          )}
          {help.kind === 'none' && <Text size="sm">Nothing to do for this item.</Text>}
        </Stack>
      )}

      {publish && (
        <Group gap="xs">
          {publish.status === 'failed' && (
            <Button variant="default" loading={republish.isPending} onClick={() => void again()}>
              Publish again
            </Button>
          )}
          <Button variant="subtle" onClick={() => void ask(() => getPublishHelp(id), {})}>
            Ask again
          </Button>
        </Group>
      )}
      {publish && (
        <Stack gap={4}>
          <Text fw={500}>Log</Text>
          <Code block>{publish.log.join('\n') || 'No log yet'}</Code>
        </Stack>
      )}
    </Stack>
  );
};
