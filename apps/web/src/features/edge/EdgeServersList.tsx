import { Alert, Button, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { DEFAULT_EDGE_TYPE, EDGE_MESSAGES, type EdgeServer } from '@media/contract';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  type EdgeScope,
  type EdgeServerCreated,
  useEdgeServers,
  useEdgeServerTypes,
} from '../../api/edge.ts';
import { notify } from '../../ui/notify.tsx';
import { DraftEdgeCard } from './DraftEdgeCard.tsx';
import { EdgeCard } from './EdgeCard.tsx';
import { hashId, temporaryId } from './edge-page.ts';

/**
 * The edge server cards of a user, a site or the cloud (spec2 §2–§4): the list's type comes from the
 * address (`?type=`, default server); new cards start as drafts; the user page's `#/{id}` selects a card.
 */
export const EdgeServersList = (props: {
  scope: EdgeScope;
  /** Who a new edge server belongs to. */
  ownerId: number;
  /** The user page keeps the selected card in the address. */
  selectionInAddress?: boolean;
}) => {
  const { scope } = props;
  const [params, setParams] = useSearchParams();
  const type = params.get('type') || DEFAULT_EDGE_TYPE;
  const location = useLocation();
  const navigate = useNavigate();
  const edges = useEdgeServers(scope, type);
  const types = useEdgeServerTypes();
  const [drafts, setDrafts] = useState<string[]>([]);
  const [tokens, setTokens] = useState<Record<number, string>>({});
  /** Created edges, shown before the list's refetch brings them (spec2 §4: inserted by id). */
  const [fresh, setFresh] = useState<EdgeServer[]>([]);
  const [selected, setSelected] = useState<number | string | undefined>(() =>
    props.selectionInAddress ? hashId(location.hash) : undefined,
  );
  const scrolled = useRef(false);

  // The address's card is scrolled into view once the list has loaded.
  useEffect(() => {
    if (scrolled.current || !edges.data || typeof selected !== 'number') return;
    scrolled.current = true;
    document.getElementById(`edge-${selected}`)?.scrollIntoView({ block: 'start' });
  }, [edges.data, selected]);

  // Once the list holds a created edge, the list's copy is the one shown (and a later delete sticks).
  useEffect(() => {
    const ids = new Set(edges.data?.results.map((edge) => edge.id));
    setFresh((current) =>
      current.some((edge) => ids.has(edge.id)) ? current.filter((edge) => !ids.has(edge.id)) : current,
    );
  }, [edges.data]);

  const select = (id: number | string) => {
    if (id === selected) return;
    setSelected(id);
    if (props.selectionInAddress && typeof id === 'number')
      void navigate(
        { pathname: location.pathname, search: location.search, hash: `#/${id}` },
        { replace: true },
      );
  };

  const addDraft = () => {
    const id = temporaryId();
    setDrafts((current) => [id, ...current]);
    setSelected(id);
  };
  const dropDraft = (id: string) => setDrafts((current) => current.filter((draft) => draft !== id));
  const created = (draftId: string, edge: EdgeServerCreated) => {
    dropDraft(draftId);
    const { agentToken, ...saved } = edge;
    setTokens((current) => ({ ...current, [edge.id]: agentToken }));
    setFresh((current) => [saved, ...current]);
    select(edge.id);
    notify({ type: 'success', text: EDGE_MESSAGES.edgeCreated(edge.name) });
  };

  const context = scope.context;
  const fetched = edges.data?.results ?? [];
  const list = [...fresh.filter((edge) => !fetched.some((f) => f.id === edge.id)), ...fetched];
  const typeChoices = types.data ?? [];

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        {typeChoices.length > 1 ? (
          <SegmentedControl
            aria-label="Edge server type"
            size="xs"
            value={type}
            data={typeChoices.map((choice) => ({ value: choice.id, label: choice.name }))}
            onChange={(next) => {
              const nextParams = new URLSearchParams(params);
              if (next === DEFAULT_EDGE_TYPE) nextParams.delete('type');
              else nextParams.set('type', next);
              setParams(nextParams, { replace: true });
            }}
          />
        ) : (
          <span />
        )}
        <Button onClick={addDraft}>New edge server</Button>
      </Group>
      {drafts.map((id) => (
        <DraftEdgeCard
          key={id}
          temporaryId={id}
          userId={props.ownerId}
          type={type}
          siteId={scope.context === 'site' ? scope.id : null}
          selected={selected === id}
          onSelect={() => select(id)}
          onDiscard={() => dropDraft(id)}
          onCreated={(edge) => created(id, edge)}
        />
      ))}
      {edges.isPending ? (
        <Loader aria-label="Loading edge servers" />
      ) : edges.isError ? (
        <Alert color="red" role="alert">
          An error occurred while fetching the data: {edges.error.message}
        </Alert>
      ) : list.length === 0 && drafts.length === 0 ? (
        <Text c="dimmed" data-testid="edge-empty">
          There are no edge servers here yet. Use New edge server to add one.
        </Text>
      ) : (
        list.map((edge) => (
          <EdgeCard
            key={edge.id}
            edge={edge}
            context={context}
            selected={selected === edge.id}
            onSelect={() => select(edge.id)}
            agentToken={tokens[edge.id]}
            onTokenSeen={() =>
              setTokens((current) => {
                const { [edge.id]: _seen, ...rest } = current;
                return rest;
              })
            }
          />
        ))
      )}
    </Stack>
  );
};
