import { Badge, Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import {
  ARRIVALS_MESSAGES,
  type EdgeContext,
  type Endpoint,
  type EndpointStatus,
  type EndpointType,
} from '@media/contract';
import { useCreateEndpoint, useEndpointAction, useSaveEndpoint, useTrashEndpoint } from '../../api/edge.ts';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { notify } from '../../ui/notify.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';
import { EditCard } from './EditCard.tsx';
import { EndpointQueueLink, QueuedStreamsBadge } from './EndpointQueueLink.tsx';
import { EndpointTargetFields } from './EndpointTargetFields.tsx';
import { cardNameError, reasonOf } from './edge-page.ts';
import {
  defaultOptionValue,
  OptionFields,
  type OptionValue,
  requiredOptionsFilled,
} from './OptionFields.tsx';
import { StreamPushAddress } from './StreamPushAddress.tsx';
import { useFollowServerValues } from './useFollowServerValues.ts';

export type EndpointForm = Pick<
  Endpoint,
  'name' | 'accountId' | 'arrivalsFolderId' | 'workflowId' | 'options' | 'online'
>;

/** An endpoint's values with its type's defaults for options it does not set. */
export const endpointForm = (endpoint: EndpointForm, type?: EndpointType): EndpointForm => {
  const options: Record<string, OptionValue> = {};
  for (const definition of type?.options ?? []) options[definition.name] = defaultOptionValue(definition);
  return {
    name: endpoint.name,
    accountId: endpoint.accountId,
    arrivalsFolderId: endpoint.arrivalsFolderId,
    workflowId: endpoint.workflowId,
    options: { ...options, ...endpoint.options },
    online: endpoint.online,
  };
};

const STATUS_COLORS: Record<EndpointStatus, string> = {
  ok: 'teal',
  disabled: 'gray',
  warning: 'yellow',
  error: 'red',
};
const STATUS_LABELS: Record<EndpointStatus, string> = {
  ok: 'OK',
  disabled: 'Disabled',
  warning: 'Warning',
  error: 'Error',
};

export const EndpointStatusBadge = ({ status }: { status: EndpointStatus }) => (
  <Badge color={STATUS_COLORS[status]} variant="light" data-testid="endpoint-status">
    {STATUS_LABELS[status]}
  </Badge>
);

/** An endpoint card: name, account, arrivals folder, workflow, options and online, edited in place. */
export const EndpointCard = (props: {
  serviceId: number;
  /** The edge page's context, for the link to the endpoint's ingest queue. */
  context: EdgeContext;
  typeId: string;
  type?: EndpointType;
  initial: EndpointForm;
  endpoint?: Endpoint;
  domId: string;
  selected: boolean;
  onSelect: () => void;
  onDiscard?: () => void;
  onCreated?: (endpoint: Endpoint) => void;
}) => {
  const { endpoint, type } = props;
  const create = useCreateEndpoint(props.serviceId);
  const saveEndpoint = useSaveEndpoint();
  const action = useEndpointAction();
  const trash = useTrashEndpoint();
  const form = useSaveState(props.initial, {
    isNew: !endpoint,
    save: async (value) => {
      // spec2 §4: an endpoint is saved with pendingSettings set to its online value.
      const body = { ...value, name: value.name.trim(), typeId: props.typeId, pendingSettings: value.online };
      if (!endpoint) {
        const created = await create.mutateAsync(body);
        props.onCreated?.(created);
        return endpointForm(created, type);
      }
      return endpointForm(await saveEndpoint.mutateAsync({ ...body, id: endpoint.id }), type);
    },
  });

  useFollowServerValues(form, props.initial, endpoint !== undefined);

  const name = form.value.name;
  const nameError = cardNameError(name);
  const definitions = type?.options ?? [];
  const valid = !nameError && requiredOptionsFilled(definitions, (option) => form.value.options[option]);

  const save = async () => {
    try {
      await form.save();
      notify({ type: 'success', text: ARRIVALS_MESSAGES.saved(name.trim()) });
    } catch (error) {
      notify({ type: 'danger', text: ARRIVALS_MESSAGES.saveFailed(name.trim(), reasonOf(error)) });
    }
  };

  const toggleEnabled = () => {
    if (!endpoint) return;
    const next = endpoint.status === 'disabled' ? 'enable' : 'disable';
    action.mutate(
      { id: endpoint.id, action: next },
      {
        onError: (error) =>
          notify({ type: 'danger', text: ARRIVALS_MESSAGES.saveFailed(endpoint.name, reasonOf(error)) }),
      },
    );
  };

  const remove = async () => {
    if (!endpoint) return;
    const confirmed = await confirmDialog({
      title: 'Delete endpoint',
      message: `Delete the endpoint "${endpoint.name}"?`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await trash.mutateAsync(endpoint.id);
      notify({ type: 'success', text: `Deleted ${endpoint.name}` });
    } catch (error) {
      notify({ type: 'danger', text: `Unable to delete ${endpoint.name} - ${reasonOf(error)}` });
    }
  };

  return (
    <EditCard
      domId={props.domId}
      label={endpoint ? `Endpoint ${endpoint.name}` : `New endpoint ${type?.name ?? props.typeId}`}
      selected={props.selected}
      onSelect={props.onSelect}
      dirty={!!endpoint && form.dirty}
      header={
        <>
          {endpoint ? (
            <strong>{endpoint.name}</strong>
          ) : (
            <Badge color="blue" variant="light">
              New endpoint
            </Badge>
          )}
          <Badge variant="outline" color="gray">
            {type?.name ?? props.typeId}
          </Badge>
          {endpoint && <EndpointStatusBadge status={endpoint.status} />}
          {endpoint?.category === 'stream' && <QueuedStreamsBadge endpoint={endpoint} />}
          {endpoint?.pendingSettings && (
            <Badge color="blue" variant="dot">
              Settings pending
            </Badge>
          )}
        </>
      }
      headerRight={
        endpoint && (
          <>
            <EndpointQueueLink endpoint={endpoint} context={props.context} />
            <Button size="xs" variant="default" onClick={toggleEnabled} loading={action.isPending}>
              {endpoint.status === 'disabled' ? 'Enable' : 'Disable'}
            </Button>
            <Button
              size="xs"
              color="red"
              variant="light"
              onClick={() => void remove()}
              loading={trash.isPending}
            >
              Delete
            </Button>
          </>
        )
      }
    >
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Name"
            required
            autoFocus={!endpoint}
            style={{ flex: 1, minWidth: 240 }}
            value={name}
            error={nameError}
            onChange={(e) => form.setValue({ ...form.value, name: e.currentTarget.value })}
          />
          <Switch
            label="Online"
            mb={8}
            checked={form.value.online}
            onChange={(e) => form.setValue({ ...form.value, online: e.currentTarget.checked })}
          />
        </Group>
        <EndpointTargetFields
          value={form.value}
          onChange={(target) => form.setValue({ ...form.value, ...target })}
        />
        <OptionFields
          definitions={definitions}
          value={(option) => form.value.options[option]}
          onChange={(option, value) =>
            form.setValue({ ...form.value, options: { ...form.value.options, [option]: value } })
          }
        />
        <StreamPushAddress serviceId={props.serviceId} typeId={props.typeId} options={form.value.options} />
        <FormButtons
          state={form.state}
          dirty={!endpoint || form.dirty}
          valid={valid}
          onSave={() => void save()}
          onDiscard={() => (endpoint ? form.discard() : props.onDiscard?.())}
        />
      </Stack>
    </EditCard>
  );
};
