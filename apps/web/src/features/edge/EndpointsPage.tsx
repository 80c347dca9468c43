import { Alert, Anchor, Button, Loader, Menu, Stack, Text, Title } from '@mantine/core';
import {
  EDGE_LINKS,
  type EdgeContext,
  type Endpoint,
  type EndpointCategory,
  type EndpointType,
  newEndpointName,
} from '@media/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useEdgeServer, useEndpointTypes, useService, useServiceEndpoints } from '../../api/edge.ts';
import { EdgePageFrame, InvalidContext } from './EdgePageHeader.tsx';
import { EndpointCard, type EndpointForm, endpointForm } from './EndpointCard.tsx';
import { hashId, temporaryId, useEdgePageContext } from './edge-page.ts';

type Draft = { id: string; typeId: string; category: EndpointCategory; initial: EndpointForm };

const GROUPS: { category: EndpointCategory; title: string }[] = [
  { category: 'source', title: 'Sources' },
  { category: 'stream', title: 'Streams' },
  { category: 'none', title: 'Other endpoints' },
];

const Endpoints = ({ serviceId, context }: { serviceId: number; context: EdgeContext }) => {
  const endpoints = useServiceEndpoints(serviceId);
  const types = useEndpointTypes(serviceId);
  const location = useLocation();
  const navigate = useNavigate();
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [selected, setSelected] = useState<number | string | undefined>(() => hashId(location.hash));
  const scrolled = useRef(false);

  useEffect(() => {
    if (scrolled.current || !endpoints.data || typeof selected !== 'number') return;
    scrolled.current = true;
    document.getElementById(`endpoint-${selected}`)?.scrollIntoView({ block: 'start' });
  }, [endpoints.data, selected]);

  const select = (id: number | string) => {
    if (id === selected) return;
    setSelected(id);
    if (typeof id === 'number')
      void navigate(
        { pathname: location.pathname, search: location.search, hash: `#/${id}` },
        { replace: true },
      );
  };
  const typeOf = (typeId: string): EndpointType | undefined => types.data?.find((type) => type.id === typeId);
  const addDraft = (type: EndpointType) => {
    const id = temporaryId();
    const initial = endpointForm(
      {
        name: newEndpointName(type.name),
        accountId: null,
        arrivalsFolderId: null,
        workflowId: null,
        options: {},
        online: true,
      },
      type,
    );
    setDrafts((current) => [{ id, typeId: type.id, category: type.category, initial }, ...current]);
    setSelected(id);
  };
  const dropDraft = (id: string) => setDrafts((current) => current.filter((draft) => draft.id !== id));

  if (endpoints.isPending || types.isPending) return <Loader aria-label="Loading endpoints" />;
  if (endpoints.isError || types.isError)
    return (
      <Alert color="red" role="alert">
        An error occurred while fetching the data: {(endpoints.error ?? types.error)?.message}
      </Alert>
    );
  const list: Endpoint[] = endpoints.data.results;
  const typeList = types.data;

  return (
    <Stack gap="md">
      <Menu position="bottom-start">
        <Menu.Target>
          <Button w="fit-content" disabled={typeList.length === 0}>
            New endpoint
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {GROUPS.map((group) => {
            const ofGroup = typeList.filter((type) => type.category === group.category);
            if (ofGroup.length === 0) return null;
            return [
              <Menu.Label key={`${group.category}-label`}>{group.title}</Menu.Label>,
              ...ofGroup.map((type) => (
                <Menu.Item key={type.id} onClick={() => addDraft(type)}>
                  {type.name}
                </Menu.Item>
              )),
            ];
          })}
        </Menu.Dropdown>
      </Menu>
      {list.length === 0 && drafts.length === 0 && (
        <Text c="dimmed" data-testid="endpoints-empty">
          This service has no endpoints yet. Use New endpoint to add a source or a stream.
        </Text>
      )}
      {GROUPS.map((group) => {
        const ofGroupDrafts = drafts.filter((draft) => draft.category === group.category);
        const ofGroup = list.filter((endpoint) => endpoint.category === group.category);
        if (ofGroup.length === 0 && ofGroupDrafts.length === 0) return null;
        return (
          <Stack
            gap="sm"
            key={group.category}
            component="section"
            aria-labelledby={`endpoints-${group.category}`}
          >
            <Title order={3} id={`endpoints-${group.category}`}>
              {group.title}
            </Title>
            {ofGroupDrafts.map((draft) => (
              <EndpointCard
                key={draft.id}
                domId={`endpoint-${draft.id}`}
                serviceId={serviceId}
                context={context}
                typeId={draft.typeId}
                type={typeOf(draft.typeId)}
                initial={draft.initial}
                selected={selected === draft.id}
                onSelect={() => select(draft.id)}
                onDiscard={() => dropDraft(draft.id)}
                onCreated={(endpoint) => {
                  dropDraft(draft.id);
                  select(endpoint.id);
                }}
              />
            ))}
            {ofGroup.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                domId={`endpoint-${endpoint.id}`}
                serviceId={serviceId}
                context={context}
                endpoint={endpoint}
                typeId={endpoint.typeId}
                type={typeOf(endpoint.typeId)}
                initial={endpointForm(endpoint, typeOf(endpoint.typeId))}
                selected={selected === endpoint.id}
                onSelect={() => select(endpoint.id)}
              />
            ))}
          </Stack>
        );
      })}
    </Stack>
  );
};

const ServiceEndpoints = (props: { edgeServerId: number; serviceId: number; context: EdgeContext }) => {
  // Asked once the edge server is known to be the person's to see (the frame says so otherwise).
  const service = useService(props.serviceId, { enabled: useEdgeServer(props.edgeServerId).isSuccess });
  return (
    <EdgePageFrame
      edgeServerId={props.edgeServerId}
      context={props.context}
      title={() => (service.data ? `Endpoints of ${service.data.name}` : 'Endpoints')}
      trail={(edge) => [
        <Anchor key="services" component={Link} to={EDGE_LINKS.services(edge.id, props.context)} size="sm">
          Services
        </Anchor>,
        <Text key="service" size="sm">
          {service.data?.name ?? ''}
        </Text>,
      ]}
    >
      {() =>
        service.isError ? (
          <Alert color="red" role="alert">
            An error occurred while fetching the data: {service.error.message}
          </Alert>
        ) : (
          <Endpoints serviceId={props.serviceId} context={props.context} />
        )
      }
    </EdgePageFrame>
  );
};

/** `/edge/{edgeServerId}/services/{serviceId}/endpoints?context=`: a service's sources and streams. */
export const EndpointsPage = () => {
  const { edgeServerId, serviceId } = useParams();
  const page = useEdgePageContext();
  if (page.error !== undefined) return <InvalidContext message={page.error} />;
  return (
    <ServiceEndpoints
      edgeServerId={Number(edgeServerId)}
      serviceId={Number(serviceId)}
      context={page.context}
    />
  );
};
