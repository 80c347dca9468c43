import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { ARRIVALS_MESSAGES, type ArrivalsFolder, EDGE_LINKS } from '@media/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import {
  arrivalsKey,
  useAccountEndpoints,
  useArrivalsAssignments,
  useArrivalsFolders,
  useArrivalsFolderTypes,
} from '../../api/arrivals.ts';
import { useLiveChannel } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { AccountFrame } from './AccountFrame.tsx';
import { ArrivalsFolderCard, folderElementId } from './ArrivalsFolderCard.tsx';

let draftSequence = 0;

/** `/accounts/{accountId}/arrivals`: the account's arrivals folders; `#{id}` picks one and scrolls to it. */
export const ArrivalsPage = () => {
  const accountId = Number(useParams().accountId);
  return (
    <AccountFrame
      accountId={accountId}
      title="Arrivals folders"
      managersOnly
      actions={
        <Button component={Link} to={EDGE_LINKS.accountIngestQueue(accountId)} variant="default">
          Ingest queue
        </Button>
      }
    >
      {() => <ArrivalsFolders accountId={accountId} />}
    </AccountFrame>
  );
};

const ArrivalsFolders = ({ accountId }: { accountId: number }) => {
  const folders = useArrivalsFolders(accountId);
  const types = useArrivalsFolderTypes(accountId);
  const endpoints = useAccountEndpoints(accountId);
  const assignments = useArrivalsAssignments(accountId);
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: arrivalsKey(accountId) });
  useLiveChannel(folders.data?.channel, refresh);
  useLiveChannel(endpoints.data?.channel, refresh);

  const [drafts, setDrafts] = useState<string[]>([]);
  const location = useLocation();
  const navigate = useNavigate();
  const selectedId = location.hash.replace(/^#/, '');

  // spec2 §8: a failed fetch is also raised as an alert.
  const fetchError = folders.error ? ARRIVALS_MESSAGES.fetchFailed(folders.error.message) : null;
  useEffect(() => {
    if (fetchError) showAlert({ type: 'danger', text: fetchError, source: 'arrivals' });
  }, [fetchError]);

  // The folder the address names comes into view once the list has loaded.
  const scrolled = useRef('');
  useEffect(() => {
    if (!folders.data || !selectedId || scrolled.current === selectedId) return;
    scrolled.current = selectedId;
    document.getElementById(folderElementId(selectedId))?.scrollIntoView({ block: 'start' });
  }, [folders.data, selectedId]);

  // The cards need the types to show a folder's options.
  if (folders.isPending || types.isPending) return <Loader aria-label="Loading" />;
  if (fetchError)
    return (
      <Alert color="red" role="alert">
        {fetchError}
      </Alert>
    );
  const list = folders.data?.results ?? [];
  /** Picks a folder in the address; only a folder just created is scrolled to (the user is elsewhere). */
  const select = (id: number, scroll = false) => {
    if (!scroll) scrolled.current = String(id);
    if (selectedId !== String(id)) void navigate({ hash: String(id) }, { replace: true });
  };

  return (
    <Stack>
      <Text c="dimmed" size="sm">
        Arrivals folders receive what the account's endpoints ingest. Each has a type, a priority among the
        account's folders, and the endpoints that deliver into it.
      </Text>
      <div>
        <Button
          onClick={() => setDrafts((current) => [...current, `new-${++draftSequence}`])}
          disabled={!types.data}
          loading={types.isPending}
        >
          New arrivals folder
        </Button>
      </div>
      {types.isError && (
        <Alert color="red" role="alert">
          {`An error occurred while fetching the data: ${types.error.message}`}
        </Alert>
      )}
      {drafts.map((key) => (
        <ArrivalsFolderCard
          key={key}
          draftKey={key}
          accountId={accountId}
          folder={null}
          types={types.data ?? []}
          endpoints={[]}
          assignments={[]}
          selected={false}
          onSelect={() => undefined}
          onDraftDone={(saved?: ArrivalsFolder) => {
            setDrafts((current) => current.filter((k) => k !== key));
            if (saved) select(saved.id, true);
          }}
        />
      ))}
      {list.length === 0 && drafts.length === 0 && (
        <Text c="dimmed" ta="center" py="lg" data-testid="arrivals-empty">
          This account has no arrivals folders yet.
        </Text>
      )}
      {list.map((folder) => (
        <ArrivalsFolderCard
          key={folder.id}
          accountId={accountId}
          folder={folder}
          types={types.data ?? []}
          endpoints={endpoints.data?.results ?? []}
          assignments={assignments.data ?? []}
          selected={selectedId === String(folder.id)}
          onSelect={() => select(folder.id)}
          onDraftDone={() => undefined}
        />
      ))}
    </Stack>
  );
};
