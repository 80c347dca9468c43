import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import {
  MSG_WEBHOOK_EVENTS_REQUIRED,
  MSG_WEBHOOK_URL_REQUIRED,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_URL_MAX,
  type Webhook,
  type WebhookEvent,
} from '@media/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useCreateWebhook, useUpdateWebhook, type WebhookWithSecret } from '../../api/webhooks.ts';
import { notify } from '../../ui/notify.tsx';
import { EventCheckboxes } from './EventCheckboxes.tsx';

type Errors = { url?: string; events?: string; description?: string; message?: string };

/** The server's field errors under their fields; anything else above the buttons. */
const errorsOf = (failure: unknown): Errors => {
  const fields = failure instanceof ApiError ? failure.fields : undefined;
  if (fields && (fields.url || fields.events || fields.description))
    return { url: fields.url, events: fields.events, description: fields.description };
  return { message: failure instanceof Error ? failure.message : String(failure) };
};

/**
 * A new webhook (address, description, events) of an account or of the cloud, or a change to one. A new one's
 * answer, with its secret, goes to `onCreated`.
 */
export const WebhookForm = ({
  accountId,
  webhook,
  onCreated,
  onDone,
}: {
  accountId: number | null;
  webhook?: Webhook;
  onCreated: (made: WebhookWithSecret) => void;
  onDone: () => void;
}) => {
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(webhook?.events ?? []);
  const [errors, setErrors] = useState<Errors>({});
  const urlInput = useRef<HTMLInputElement>(null);
  // An address refused (here or by the server) is brought into view: the events below may have scrolled it away.
  useEffect(() => {
    if (errors.url) urlInput.current?.focus();
  }, [errors.url]);
  const create = useCreateWebhook(accountId);
  const update = useUpdateWebhook();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: Errors = {
      url: url.trim() ? undefined : MSG_WEBHOOK_URL_REQUIRED,
      events: events.length ? undefined : MSG_WEBHOOK_EVENTS_REQUIRED,
    };
    setErrors(missing);
    if (missing.url || missing.events) return;
    const input = { url: url.trim(), description: description.trim(), events };
    try {
      if (webhook) {
        await update.mutateAsync({ id: webhook.id, change: input });
        notify({ type: 'success', text: `Webhook to ${input.url} saved` });
      } else {
        onCreated(await create.mutateAsync(input));
      }
      onDone();
    } catch (failure) {
      setErrors(errorsOf(failure));
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        <TextInput
          label="Address"
          description="Deliveries are POSTed here as JSON, signed (Standard Webhooks): an https or http address"
          placeholder="https://example.com/hooks/media"
          required
          data-autofocus
          type="url"
          ref={urlInput}
          maxLength={WEBHOOK_URL_MAX}
          value={url}
          error={errors.url}
          onChange={(e) => {
            setUrl(e.currentTarget.value);
            setErrors((shown) => ({ ...shown, url: undefined }));
          }}
        />
        <Textarea
          label="Description"
          description="What it is for, so that others know"
          placeholder="Archive: fetch every ingested file"
          autosize
          minRows={1}
          maxRows={4}
          maxLength={WEBHOOK_DESCRIPTION_MAX}
          value={description}
          error={errors.description}
          onChange={(e) => {
            setDescription(e.currentTarget.value);
            setErrors((shown) => ({ ...shown, description: undefined }));
          }}
        />
        <EventCheckboxes
          value={events}
          onChange={(chosen) => {
            setEvents(chosen);
            setErrors((shown) => ({ ...shown, events: undefined }));
          }}
          error={errors.events}
        />
        {errors.message && (
          <Alert color="red" role="alert">
            {errors.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {webhook ? 'Save' : 'Create webhook'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
