import { Anchor, Badge, Button, Group, Stack, TextInput } from '@mantine/core';
import {
  EDGE_LINKS,
  EDGE_MESSAGES,
  type EdgeContext,
  type Service,
  type ServiceOptions,
  type ServiceType,
} from '@media/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCreateService, useSaveService, useServiceAction, useTrashService } from '../../api/edge.ts';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { notify } from '../../ui/notify.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';
import { EditCard } from './EditCard.tsx';
import { cardNameError, reasonOf } from './edge-page.ts';
import { OptionFields, requiredOptionsFilled } from './OptionFields.tsx';
import { OWN_GROUP, ServiceGroupSelect, serviceGroupIdOf } from './ServiceGroupSelect.tsx';
import { useFollowServerValues } from './useFollowServerValues.ts';

export type ServiceForm = { name: string; options: ServiceOptions };

/** A service's values with the type's defaults for options it does not set. */
export const serviceForm = (service: Pick<Service, 'name' | 'options'>, type?: ServiceType): ServiceForm => {
  const options: ServiceOptions = {};
  for (const definition of type?.options ?? []) options[definition.name] = { value: definition.default };
  return { name: service.name, options: { ...options, ...service.options } };
};

/** A service card (spec2 §2): name and the type's options edited in place; a draft until created. */
export const ServiceCard = (props: {
  edgeServerId: number;
  context: EdgeContext;
  typeId: string;
  type?: ServiceType;
  initial: ServiceForm;
  /** The saved service; absent for a draft. */
  service?: Service;
  domId: string;
  selected: boolean;
  onSelect: () => void;
  onDiscard?: () => void;
  onCreated?: (service: Service) => void;
}) => {
  const { service, type } = props;
  const create = useCreateService(props.edgeServerId);
  const saveService = useSaveService();
  const trash = useTrashService();
  const serviceAction = useServiceAction();
  // spec2 §3: serviceGroupId travels only on create.
  const [group, setGroup] = useState(OWN_GROUP);
  const form = useSaveState(props.initial, {
    isNew: !service,
    save: async (value) => {
      const body = { name: value.name.trim(), typeId: props.typeId, options: value.options };
      if (!service) {
        const created = await create.mutateAsync({ ...body, serviceGroupId: serviceGroupIdOf(group) });
        props.onCreated?.(created);
        return serviceForm(created, type);
      }
      return serviceForm(
        await saveService.mutateAsync({ id: service.id, edgeServerId: props.edgeServerId, ...body }),
        type,
      );
    },
  });

  useFollowServerValues(form, props.initial, service !== undefined);

  const name = form.value.name;
  const nameError = cardNameError(name);
  const definitions = type?.options ?? [];
  const valid =
    !nameError && requiredOptionsFilled(definitions, (option) => form.value.options[option]?.value);

  const save = async () => {
    try {
      await form.save();
      notify({
        type: 'success',
        text: service ? EDGE_MESSAGES.serviceSaved(name.trim()) : EDGE_MESSAGES.serviceCreated(name.trim()),
      });
    } catch (error) {
      const reason = reasonOf(error);
      notify({
        type: 'danger',
        text: service ? EDGE_MESSAGES.serviceSaveFailed(reason) : EDGE_MESSAGES.serviceCreateFailed(reason),
      });
    }
  };

  const runAction = (action: 'restart' | 'rescan') => {
    if (!service) return;
    const label = action === 'restart' ? 'Restart' : 'Rescan';
    serviceAction.mutate(
      { id: service.id, action },
      {
        onSuccess: () => notify({ type: 'info', text: `${label} of "${service.name}" requested` }),
        onError: (error) => notify({ type: 'danger', text: `${label} failed: ${reasonOf(error)}` }),
      },
    );
  };

  const remove = async () => {
    if (!service) return;
    const confirmed = await confirmDialog({
      title: 'Delete service',
      message: `Delete the service "${service.name}" and its endpoints?`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await trash.mutateAsync(service.id);
      notify({ type: 'success', text: EDGE_MESSAGES.serviceDeleted });
    } catch (error) {
      notify({ type: 'danger', text: EDGE_MESSAGES.serviceDeleteFailed(reasonOf(error)) });
    }
  };

  return (
    <EditCard
      domId={props.domId}
      label={service ? `Service ${service.name}` : 'New service'}
      selected={props.selected}
      onSelect={props.onSelect}
      dirty={!!service && form.dirty}
      header={
        <>
          {service ? (
            <strong>{service.name}</strong>
          ) : (
            <Badge color="blue" variant="light">
              New service
            </Badge>
          )}
          <Badge variant="outline" color="gray">
            {type?.name ?? props.typeId}
          </Badge>
        </>
      }
      headerRight={
        service && (
          <>
            <Button
              size="xs"
              variant="default"
              loading={serviceAction.isPending && serviceAction.variables?.action === 'restart'}
              onClick={() => runAction('restart')}
            >
              Restart
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={serviceAction.isPending && serviceAction.variables?.action === 'rescan'}
              onClick={() => runAction('rescan')}
            >
              Rescan
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
        <TextInput
          label="Name"
          required
          autoFocus={!service}
          value={name}
          error={form.dirty || !service ? nameError : undefined}
          onChange={(e) => form.setValue({ ...form.value, name: e.currentTarget.value })}
        />
        {!service && (
          <ServiceGroupSelect
            edgeServerId={props.edgeServerId}
            typeId={props.typeId}
            value={group}
            onChange={setGroup}
          />
        )}
        <OptionFields
          definitions={definitions}
          value={(option) => form.value.options[option]?.value}
          onChange={(option, value) =>
            form.setValue({
              ...form.value,
              options: { ...form.value.options, [option]: { value: String(value) } },
            })
          }
        />
        <Group justify="space-between">
          <FormButtons
            state={form.state}
            dirty={!service || form.dirty}
            valid={valid}
            onSave={() => void save()}
            onDiscard={() => (service ? form.discard() : props.onDiscard?.())}
          />
          {service && (
            <Anchor
              component={Link}
              to={EDGE_LINKS.endpoints(props.edgeServerId, service.id, props.context)}
              size="sm"
            >
              Endpoints ({service.endpointCount})
            </Anchor>
          )}
        </Group>
      </Stack>
    </EditCard>
  );
};
