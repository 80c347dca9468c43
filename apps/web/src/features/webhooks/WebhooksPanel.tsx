import { Alert, Button, CloseButton, Code, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { MSG_WEBHOOK_SECRET_SHOWN_ONCE, PAGE_SIZES, type PageWindow, type Webhook } from '@media/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useWebhooks, type WebhookWithSecret } from '../../api/webhooks.ts';
import { Paginator } from '../../ui/Paginator.tsx';
import { SecretShownOnce } from '../../ui/SecretShownOnce.tsx';
import { WebhookDeliveries } from './WebhookDeliveries.tsx';
import { WebhookForm } from './WebhookForm.tsx';
import { WebhooksTable } from './WebhooksTable.tsx';

const FIRST_PAGE: PageWindow = { startIndex: 0, pageSize: 20 };
/** The address's query parameter naming the webhook whose deliveries are shown (kept across a reload). */
const CHOSEN_PARAM = 'webhook';

/** A secret just made (a new webhook's, or a rotated one): shown this once. */
const NewSecret = ({
  shown,
  onDone,
}: {
  shown: WebhookWithSecret & { rotated: boolean };
  onDone: () => void;
}) => (
  <SecretShownOnce
    title={
      shown.rotated ? `New secret of the webhook to ${shown.url}` : `Secret of the webhook to ${shown.url}`
    }
    message={MSG_WEBHOOK_SECRET_SHOWN_ONCE}
    secret={shown.secret}
    testId="webhook-secret"
    dismissLabel="I have copied it"
    copyLabel="Copy secret"
    onDismiss={onDone}
  >
    <Text size="xs" c="dimmed">
      Each delivery carries the headers <Code>webhook-id</Code>, <Code>webhook-timestamp</Code> and{' '}
      <Code>webhook-signature</Code> (Standard Webhooks 1.0): any of its libraries checks them with this
      secret.
    </Text>
  </SecretShownOnce>
);

/**
 * The webhooks of an account (its Integrations) or of the cloud (null): listed with their state and last
 * delivery; created and changed in a dialog (events as grouped checkboxes); the secret shown once after
 * creation and rotation; the chosen one's deliveries below, each opening what was sent and what came back.
 */
export const WebhooksPanel = ({ accountId }: { accountId: number | null }) => {
  const [window, setWindow] = useState(FIRST_PAGE);
  const webhooks = useWebhooks(accountId, window);
  const [editing, setEditing] = useState<{ webhook?: Webhook } | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecret & { rotated: boolean }>();
  const [search, setSearch] = useSearchParams();
  const chosenId = Number(search.get(CHOSEN_PARAM)) || undefined;
  const rows = webhooks.data?.results ?? [];
  const chosen = rows.find((webhook) => webhook.id === chosenId);

  const choose = (webhook: Webhook | undefined) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (webhook) next.set(CHOSEN_PARAM, String(webhook.id));
        else next.delete(CHOSEN_PARAM);
        return next;
      },
      { replace: true },
    );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Text size="sm" c="dimmed" maw={640}>
          {accountId === null
            ? 'Webhooks tell other systems (an archive, a newsroom, a MAM) what happens in every account: media arriving, ingested, published, streams and users.'
            : 'Webhooks tell other systems (an archive, a newsroom, a MAM) what happens in this account: media arriving, ingested, published, streams and users.'}
        </Text>
        <Button onClick={() => setEditing({})}>New webhook</Button>
      </Group>
      {secret && <NewSecret shown={secret} onDone={() => setSecret(undefined)} />}
      {webhooks.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : webhooks.isError ? (
        <Alert color="red" role="alert">
          Could not load the webhooks: {webhooks.error.message}
        </Alert>
      ) : webhooks.data.total === 0 ? (
        <Text size="sm" data-testid="webhooks-empty">
          No webhooks yet. Make one with New webhook.
        </Text>
      ) : (
        <>
          <WebhooksTable
            webhooks={rows}
            chosenId={chosen?.id}
            onDeliveries={choose}
            onEdit={(webhook) => setEditing({ webhook })}
            onSecret={(rotated) => setSecret({ ...rotated, rotated: true })}
          />
          {webhooks.data.total > PAGE_SIZES[0] && (
            <Paginator total={webhooks.data.total} window={window} onChange={setWindow} hideAll />
          )}
        </>
      )}
      {chosen && (
        <Paper withBorder p="md" component="section" aria-labelledby="webhook-deliveries-title">
          <Group justify="space-between" mb="sm" wrap="nowrap">
            <Title order={4} id="webhook-deliveries-title" style={{ wordBreak: 'break-all' }}>
              Deliveries to {chosen.url}
            </Title>
            <CloseButton aria-label="Close the deliveries" onClick={() => choose(undefined)} />
          </Group>
          <WebhookDeliveries key={chosen.id} webhookId={chosen.id} />
        </Paper>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.webhook ? 'Edit webhook' : 'New webhook'}
        size="xl"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing && (
          <WebhookForm
            key={editing.webhook?.id ?? 'new'}
            accountId={accountId}
            webhook={editing.webhook}
            onCreated={(made) => {
              setSecret({ ...made, rotated: false });
              choose(made);
            }}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
};
