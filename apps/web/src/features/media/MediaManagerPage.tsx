import {
  Alert,
  Anchor,
  Breadcrumbs,
  Grid,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  accountPath,
  CHILD_ORDER_LABELS,
  CHILD_ORDERS,
  type ChildOrder,
  displayName,
  NODE_MESSAGES,
  PUBLISH_FOLDER_NAME,
  parentPathOf,
  publishButtonNameOf,
  splitAccountPath,
} from '@media/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useAccountByName, useLaunchAccount } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { nodesKey, useNodeListing } from '../../api/nodes.ts';
import { usePublishButtons } from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { accountSettingsPath } from '../accounts/account-paths.ts';
import { PlayerHost } from '../player/PlayerHost.tsx';
import { openPlayer } from '../player/player-store.ts';
import { ActingRoleBanner } from './ActingRoleBanner.tsx';
import { ChildrenGrid } from './ChildrenGrid.tsx';
import { ChildrenTable } from './ChildrenTable.tsx';
import { FolderTree } from './FolderTree.tsx';
import { FolderView } from './FolderView.tsx';
import { childrenOf } from './listing-query.ts';
import { breadcrumbsOf, foldersAlong, selectedPathOf } from './media-address.ts';
import { PublishTargetView } from './PublishTargetView.tsx';
import { RecentPublishes } from './RecentPublishes.tsx';
import { SearchBar } from './SearchBar.tsx';
import { isSearching, NO_SEARCH, type SearchState } from './search-clauses.ts';
import { useNodeDrop } from './useNodeDrop.tsx';

const ORDER_CHOICES = CHILD_ORDERS.map((order) => ({ value: order, label: CHILD_ORDER_LABELS[order] }));
type ChildrenView = 'list' | 'grid';
const VIEW_CHOICES: { value: ChildrenView; label: string }[] = [
  { value: 'list', label: 'List' },
  { value: 'grid', label: 'Grid' },
];

/**
 * `/accounts/{accountName}/media` (spec3 §2 Media manager): the folder tree on the left, the selected
 * folder's children (or the search results) on the right with the actions the caller's rights allow,
 * the metadata of the selected node below. `?path=` opens a folder; `?role=` follows Edit as role.
 * Opening it enters the account (launch), so the session shows in the account's sessions list and the
 * concurrent user limit applies; a refused entry shows the server's message in place of the tree.
 * `gridOnly` (spec3 §2, the area's option; `/accounts/{accountName}/media/grid`) shows the children as a
 * thumbnail grid across the page, without the tree or the List/Grid choice; the breadcrumbs navigate.
 */
export const MediaManagerPage = ({ gridOnly = false }: { gridOnly?: boolean }) => {
  const { accountName = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const path = selectedPathOf(accountName, params.get('path'));
  const root = accountPath(accountName, '/');
  const queryClient = useQueryClient();
  const account = useAccountByName(accountName);
  const accountId = account.data?.id;
  const roleParam = params.get('role');

  // Launch once per account (and role) opened: Edit as role already launched with `?role=`, and launching
  // again with the same role keeps acting as it; without one the session enters with its own rights.
  const enter = useLaunchAccount(accountId ?? 0);
  const enterMutate = enter.mutate;
  const enteredKey = useRef<string | null>(null);
  const [enteredAccountId, setEnteredAccountId] = useState<number | null>(null);
  useEffect(() => {
    if (accountId === undefined) return;
    const key = `${accountId}:${roleParam ?? ''}`;
    if (enteredKey.current === key) return;
    enteredKey.current = key;
    const roleId = roleParam && /^\d+$/.test(roleParam) ? Number(roleParam) : undefined;
    enterMutate(roleId, {
      onSuccess: () => {
        setEnteredAccountId(accountId);
        void queryClient.invalidateQueries({ queryKey: nodesKey });
      },
    });
  }, [accountId, roleParam, enterMutate, queryClient]);
  const entered = accountId !== undefined && enteredAccountId === accountId && !enter.isError;

  const [childOrder, setChildOrder] = useState<ChildOrder>('time');
  const [chosenView, setChosenView] = useState<ChildrenView>('list');
  const view: ChildrenView = gridOnly ? 'grid' : chosenView;
  const ChildrenShown = view === 'grid' ? ChildrenGrid : ChildrenTable;
  const [search, setSearch] = useState<SearchState>(NO_SEARCH);
  const [selectedPaths, setSelectedPaths] = useState<string[]>([]);
  // The publishing buttons' folder starts open: its buttons are where media is dropped to publish it.
  const publishFolder = accountPath(accountName, `/${PUBLISH_FOLDER_NAME}`);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () => new Set([...foldersAlong(path), publishFolder]),
  );
  const searching = isSearching(search);
  // /{account}/Publish/{button}: a publishing button's place, which shows its published items.
  const publishButtonName = publishButtonNameOf(splitAccountPath(path).innerPath);
  const buttons = usePublishButtons({ scope: 'accounts', scopeId: accountId ?? 0 }, { enabled: entered });
  const publishTargets = (buttons.data?.results ?? []).filter((button) => button.enabled);

  // spec3 §4: selecting a path loads it with its ancestors; they open in the tree.
  useEffect(() => {
    setExpanded((open) => new Set([...open, ...foldersAlong(path).slice(0, -1)]));
    setSelectedPaths([]);
  }, [path]);

  const select = useCallback(
    (next: string) =>
      setParams((current) => {
        const query = new URLSearchParams(current);
        if (next === root) query.delete('path');
        else query.set('path', next);
        return query;
      }),
    [setParams, root],
  );
  const toggle = (folder: string, open: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(folder);
      else next.delete(folder);
      return next;
    });

  const listing = useNodeListing(
    {
      path,
      childOrder,
      search: search.clauses,
      createdFrom: search.createdFrom,
      createdTo: search.createdTo,
    },
    { live: true, enabled: entered && publishButtonName === undefined },
  );
  // spec3 §8: a node load error is an alert too; 'timedOut' shows the server's message as a warning.
  const loadError = listing.error;
  useEffect(() => {
    if (!loadError) return;
    const timedOut = loadError instanceof ApiError && loadError.code === 'timedOut';
    showAlert({
      type: timedOut ? 'warning' : 'danger',
      text: timedOut ? loadError.message : NODE_MESSAGES.fetchFailed(loadError.message),
      source: 'nodes',
    });
  }, [loadError]);

  const pages = listing.data?.pages;
  const current = pages?.[0]?.results;
  const children = childrenOf(pages);
  const total = pages?.at(-1)?.total ?? 0;
  const totalCapped = pages?.at(-1)?.totalCapped ?? false;
  const selectedNodes = children.filter((child) => selectedPaths.includes(child.path));
  const drop = useNodeDrop({ known: children, onTransferred: () => setSelectedPaths([]) });

  const afterRoleReset = () => {
    // Reset role has just launched without a role: dropping `?role=` needs no second launch.
    if (accountId !== undefined) enteredKey.current = `${accountId}:`;
    setParams((query) => {
      const next = new URLSearchParams(query);
      next.delete('role');
      return next;
    });
    void queryClient.invalidateQueries({ queryKey: nodesKey });
  };

  return (
    <Stack gap="sm">
      <PlayerHost />
      {drop.dialogs}
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Media</Title>
          <Text c="dimmed" size="sm">
            Account{' '}
            <Anchor component={Link} to={accountSettingsPath(accountName)} size="sm">
              {accountName}
            </Anchor>
          </Text>
        </div>
        <Group gap="sm">
          {!gridOnly && (
            <SegmentedControl
              aria-label="View"
              size="xs"
              data={VIEW_CHOICES}
              value={view}
              onChange={(value) => setChosenView(value as ChildrenView)}
            />
          )}
          <SegmentedControl
            aria-label="Child order"
            size="xs"
            data={ORDER_CHOICES}
            value={childOrder}
            onChange={(value) => setChildOrder(value as ChildOrder)}
          />
        </Group>
      </Group>
      {current?.actingRole && (
        <ActingRoleBanner
          accountId={current.node.accountId}
          role={current.actingRole}
          onReset={afterRoleReset}
        />
      )}
      {account.isError && (
        <Alert color="red" role="alert">
          {account.error.message}
        </Alert>
      )}
      {enter.isError && (
        <Alert color="red" role="alert">
          {enter.error.message}
        </Alert>
      )}
      {!entered && !account.isError && !enter.isError && <Loader aria-label="Loading" />}
      {entered && (
        <Grid gap="md">
          {!gridOnly && (
            <Grid.Col span={{ base: 12, md: 3 }}>
              <Stack gap="sm">
                <Paper withBorder p="xs" component="nav" aria-label="Media tree" aria-busy={drop.busy}>
                  <FolderTree
                    rootPath={root}
                    rootName={accountName}
                    selectedPath={path}
                    expanded={expanded}
                    childOrder={childOrder}
                    onToggle={toggle}
                    onSelect={select}
                    onDropNodes={(dstPath, paths) => void drop.drop(dstPath, paths)}
                    publishButtons={publishTargets}
                  />
                </Paper>
                {accountId !== undefined && (
                  <RecentPublishes accountId={accountId} accountName={accountName} onOpenButton={select} />
                )}
              </Stack>
            </Grid.Col>
          )}
          <Grid.Col span={{ base: 12, md: gridOnly ? 12 : 9 }}>
            {publishButtonName !== undefined ? (
              <PublishTargetView
                accountName={accountName}
                path={path}
                buttonName={publishButtonName}
                buttons={publishTargets}
                loading={buttons.isPending}
                error={buttons.error?.message ?? null}
                onSelectFolder={select}
                onDropNodes={(dstPath, paths) => void drop.drop(dstPath, paths)}
              />
            ) : (
              <Stack gap="sm">
                {current && (
                  <nav aria-label="Folder path">
                    <Breadcrumbs separator="›">
                      {breadcrumbsOf(current).map((crumb) => (
                        <Anchor
                          key={crumb.path}
                          component="button"
                          type="button"
                          size="sm"
                          onClick={() => select(crumb.path)}
                        >
                          {crumb.name}
                        </Anchor>
                      ))}
                    </Breadcrumbs>
                  </nav>
                )}
                <SearchBar search={search} onChange={setSearch} />
                {listing.isError && (
                  <Alert color="red" role="alert">
                    {NODE_MESSAGES.fetchFailed(listing.error.message)}{' '}
                    {path !== root && (
                      <Anchor component="button" type="button" size="sm" onClick={() => select(root)}>
                        Open the account's root folder
                      </Anchor>
                    )}
                  </Alert>
                )}
                {listing.isPending && !listing.isError && <Loader aria-label="Loading" />}
                {current && !listing.isError && (
                  <FolderView
                    key={current.node.path}
                    folder={current.node}
                    stale={listing.isPlaceholderData}
                    selectedNodes={selectedNodes}
                    siteId={account.data?.siteId}
                    onSelectFolder={select}
                    onTransferred={() => setSelectedPaths([])}
                  >
                    {searching && listing.isFetching && !listing.isFetchingNextPage && (
                      <Group gap="xs" role="status" aria-label="Searching">
                        <Loader size="xs" />
                        <Text size="sm" c="dimmed">
                          Searching…
                        </Text>
                      </Group>
                    )}
                    <ChildrenShown
                      nodes={children}
                      total={total}
                      totalCapped={totalCapped}
                      loading={
                        listing.isPlaceholderData ||
                        (listing.isFetching && searching && !listing.isFetchingNextPage)
                      }
                      emptyText={searching ? NODE_MESSAGES.noResults : NODE_MESSAGES.noChildren}
                      selectedPaths={selectedPaths}
                      onSelectionChange={setSelectedPaths}
                      onOpenFolder={select}
                      onPlay={(node) =>
                        node.mediaId !== null &&
                        openPlayer({
                          mediaId: node.mediaId,
                          name: displayName(node.name),
                          path: parentPathOf(node.path) ?? root,
                          accountId: node.accountId,
                          accountName,
                        })
                      }
                      hasMore={listing.hasNextPage}
                      loadingMore={listing.isFetchingNextPage}
                      onLoadMore={() => void listing.fetchNextPage()}
                      draggable={!gridOnly}
                    />
                  </FolderView>
                )}
              </Stack>
            )}
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
};

/** The media manager's grid-only option as a page of its own. */
export const MediaGridPage = () => <MediaManagerPage gridOnly />;
