import { Alert, Anchor, Button, Loader, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  CHANNELS,
  errorWhile,
  type KeyboardExpansionMap,
  keyMapNameProblem,
  MSG_KEY_MAP_SAVED,
  MSG_NO_KEY_MAPS,
} from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  fetchKeyMaps,
  keyMapsKey,
  useExportKeyMap,
  useKeyMaps,
  useManagedAccounts,
} from '../../api/account-config.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { notify } from '../../ui/notify.tsx';

/** spec1 §2 Keyboard expansion maps: download each as XML, or export a copy to another managed account. */
export const KeyboardExpansionMapsSection = ({
  account,
  canManage,
}: {
  account: { id: number; name: string };
  canManage: boolean;
}) => {
  const maps = useKeyMaps(account.id);
  useLiveRefresh(CHANNELS.keyboardExpansions(account.id), keyMapsKey(account.id));
  if (maps.isPending) return <Loader size="sm" aria-label="Loading keyboard expansion maps" />;
  if (maps.isError)
    return (
      <Alert color="red" role="alert">
        {errorWhile(maps.error, 'loading the keyboard expansions')}
      </Alert>
    );
  if (maps.data.results.length === 0)
    return (
      <Text c="dimmed" size="sm">
        {MSG_NO_KEY_MAPS}
      </Text>
    );
  return (
    <Table verticalSpacing={4} aria-label="Keyboard expansion maps">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th aria-label="Download" />
          {canManage && (
            <>
              <Table.Th>Export to Account</Table.Th>
              <Table.Th>New Name</Table.Th>
              <Table.Th aria-label="Export" />
            </>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {maps.data.results.map((map) => (
          <KeyMapRow key={map.id} map={map} accountName={account.name} canManage={canManage} />
        ))}
      </Table.Tbody>
    </Table>
  );
};

const KeyMapRow = ({
  map,
  accountName,
  canManage,
}: {
  map: KeyboardExpansionMap;
  accountName: string;
  canManage: boolean;
}) => {
  const [targetId, setTargetId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const targets = useManagedAccounts(canManage ? debouncedSearch : '');
  const targetMaps = useQuery({
    queryKey: keyMapsKey(Number(targetId)),
    queryFn: () => fetchKeyMaps(Number(targetId)),
    enabled: targetId !== null,
  });
  const exportMap = useExportKeyMap();
  const problem = keyMapNameProblem(name, targetMaps.data?.results.map((m) => m.name) ?? []);
  const valid = targetId !== null && targetMaps.isSuccess && problem === undefined;

  const submit = async () => {
    if (!valid) return;
    try {
      await exportMap.mutateAsync({ accountId: Number(targetId), name: name.trim(), cloneFromId: map.id });
      notify({ type: 'success', text: MSG_KEY_MAP_SAVED });
      setName('');
      setTouched(false);
    } catch (error) {
      showAlert({
        type: 'danger',
        text: errorWhile(error, 'saving the keyboard expansions'),
        source: 'key-maps',
      });
    }
  };

  return (
    <Table.Tr>
      <Table.Td>{map.name}</Table.Td>
      <Table.Td>
        <Anchor
          href={`/accounts/${encodeURIComponent(accountName)}/generatekeyexpansion?id=${map.id}`}
          download
          size="sm"
        >
          Download as XML
        </Anchor>
      </Table.Td>
      {canManage && (
        <>
          <Table.Td>
            <Select
              size="xs"
              aria-label={`Export ${map.name} to account`}
              placeholder="Choose an account"
              searchable
              searchValue={search}
              onSearchChange={setSearch}
              nothingFoundMessage={targets.isFetching ? 'Searching…' : 'No account you manage matches'}
              data={(targets.data?.results ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
              value={targetId}
              onChange={setTargetId}
              filter={({ options }) => options}
            />
          </Table.Td>
          <Table.Td>
            <TextInput
              size="xs"
              aria-label={`New name for ${map.name}`}
              value={name}
              onChange={(event) => {
                setName(event.currentTarget.value);
                setTouched(true);
              }}
              error={touched && targetId !== null ? problem : undefined}
            />
          </Table.Td>
          <Table.Td>
            <Button size="compact-sm" disabled={!valid} loading={exportMap.isPending} onClick={submit}>
              Export
            </Button>
          </Table.Td>
        </>
      )}
    </Table.Tr>
  );
};
