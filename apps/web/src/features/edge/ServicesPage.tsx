import { Alert, Button, Loader, Menu, Stack, Text } from '@mantine/core';
import { EDGE_MESSAGES, type EdgeContext, type Service, type ServiceType } from '@media/contract';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { useServices, useServiceTemplates, useServiceTypes } from '../../api/edge.ts';
import { notify } from '../../ui/notify.tsx';
import { EdgePageFrame, InvalidContext } from './EdgePageHeader.tsx';
import { reasonOf, temporaryId, useEdgePageContext } from './edge-page.ts';
import { ServiceCard, type ServiceForm, serviceForm } from './ServiceCard.tsx';

type Draft = { id: string; typeId: string; initial: ServiceForm };

/** A load failure of the types or templates is a danger notification (spec2 §8), once per failure. */
const useNotifyOnError = (error: Error | null, message: (reason: string) => string) => {
  useEffect(() => {
    if (error) notify({ type: 'danger', text: message(reasonOf(error)) });
  }, [error, message]);
};

const Services = ({ edgeServerId, context }: { edgeServerId: number; context: EdgeContext }) => {
  const services = useServices(edgeServerId);
  const types = useServiceTypes(edgeServerId);
  const templates = useServiceTemplates(edgeServerId);
  useNotifyOnError(types.error, EDGE_MESSAGES.serviceTypesLoadFailed);
  useNotifyOnError(templates.error, EDGE_MESSAGES.serviceTemplatesLoadFailed);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [selected, setSelected] = useState<number | string>();

  const typeOf = (typeId: string): ServiceType | undefined => types.data?.find((type) => type.id === typeId);
  const addDraft = (typeId: string, initial: ServiceForm) => {
    const id = temporaryId();
    setDrafts((current) => [{ id, typeId, initial }, ...current]);
    setSelected(id);
  };
  const dropDraft = (id: string) => setDrafts((current) => current.filter((draft) => draft.id !== id));

  if (services.isPending || types.isPending) return <Loader aria-label="Loading services" />;
  if (services.isError)
    return (
      <Alert color="red" role="alert">
        An error occurred while fetching the data: {services.error.message}
      </Alert>
    );
  const list: Service[] = services.data.results;

  return (
    <Stack gap="sm">
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button w="fit-content" disabled={!types.data?.length && !templates.data?.length}>
            New service
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>From a service type</Menu.Label>
          {(types.data ?? []).map((type) => (
            <Menu.Item
              key={type.id}
              onClick={() => addDraft(type.id, serviceForm({ name: type.name, options: {} }, type))}
            >
              {type.name}
            </Menu.Item>
          ))}
          {(templates.data?.length ?? 0) > 0 && <Menu.Label>From a template</Menu.Label>}
          {(templates.data ?? []).map((template) => (
            <Menu.Item
              key={template.id}
              onClick={() => addDraft(template.typeId, serviceForm(template, typeOf(template.typeId)))}
            >
              {template.name}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {drafts.map((draft) => (
        <ServiceCard
          key={draft.id}
          domId={`service-${draft.id}`}
          edgeServerId={edgeServerId}
          context={context}
          typeId={draft.typeId}
          type={typeOf(draft.typeId)}
          initial={draft.initial}
          selected={selected === draft.id}
          onSelect={() => setSelected(draft.id)}
          onDiscard={() => dropDraft(draft.id)}
          onCreated={(service) => {
            dropDraft(draft.id);
            setSelected(service.id);
          }}
        />
      ))}
      {list.length === 0 && drafts.length === 0 && (
        <Text c="dimmed" data-testid="services-empty">
          This edge server runs no services yet. Use New service to add one from a type or a template.
        </Text>
      )}
      {list.map((service) => (
        <ServiceCard
          key={service.id}
          domId={`service-${service.id}`}
          edgeServerId={edgeServerId}
          context={context}
          service={service}
          typeId={service.typeId}
          type={typeOf(service.typeId)}
          initial={serviceForm(service, typeOf(service.typeId))}
          selected={selected === service.id}
          onSelect={() => setSelected(service.id)}
        />
      ))}
    </Stack>
  );
};

/** `/edge/{edgeServerId}/services?context=`: the services of an edge server, as cards. */
export const ServicesPage = () => {
  const { edgeServerId } = useParams();
  const page = useEdgePageContext();
  if (page.error !== undefined) return <InvalidContext message={page.error} />;
  return (
    <EdgePageFrame edgeServerId={Number(edgeServerId)} context={page.context} title={() => 'Services'}>
      {(edge) => <Services edgeServerId={edge.id} context={page.context} />}
    </EdgePageFrame>
  );
};
