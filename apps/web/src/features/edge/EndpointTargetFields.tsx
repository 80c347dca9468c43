import { Select, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  ARRIVALS_MESSAGES,
  CREATE_NEW_FOLDER_ID,
  EDGE_MESSAGES,
  errorWhile,
  NO_WORKFLOW_ID,
} from '@media/contract';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import {
  useAccountArrivalsFolders,
  useAccountName,
  useAccountWorkflows,
  useCreateAccountArrivalsFolder,
  useVisibleAccounts,
} from '../../api/edge.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { textInputDialog } from '../../ui/dialogs.tsx';

const SEARCH_DEBOUNCE_MS = 300;
const UNASSIGNED = 'unassigned';
const MANAGER_MUST_SET = 'managerMustSet';

export type EndpointTarget = {
  accountId: number | null;
  arrivalsFolderId: number | null;
  workflowId: number | null;
};

/** A searchable select of the accounts the user can see. */
const AccountSelect = (props: { value: number | null; onChange: (accountId: number | null) => void }) => {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const current = useAccountName(props.value);
  const accounts = useVisibleAccounts(debounced);
  const choices = (accounts.data?.results ?? []).map((account) => ({
    value: String(account.id),
    label: account.name,
  }));
  if (props.value !== null && !choices.some((choice) => choice.value === String(props.value)))
    choices.unshift({ value: String(props.value), label: current.data ?? `Account ${props.value}` });
  return (
    <Select
      label="Account"
      placeholder={EDGE_MESSAGES.selectPlaceholder}
      searchable
      clearable
      data={choices}
      filter={({ options }) => options}
      nothingFoundMessage={accounts.isFetching ? 'Searching…' : 'No account matches'}
      searchValue={search}
      onSearchChange={setSearch}
      error={
        accounts.isError ? `An error occurred while fetching the data: ${accounts.error.message}` : undefined
      }
      value={props.value === null ? null : String(props.value)}
      onChange={(next) => props.onChange(next === null ? null : Number(next))}
    />
  );
};

/** An endpoint's account, the account's arrivals folder and the ingest workflow (spec2 §3, §6). */
export const EndpointTargetFields = (props: {
  value: EndpointTarget;
  onChange: (next: EndpointTarget) => void;
}) => {
  const { accountId } = props.value;
  const folders = useAccountArrivalsFolders(accountId);
  const workflows = useAccountWorkflows(accountId);
  // spec2 §6: a 403 on the arrivals folders leaves one choice, which only an account manager can change.
  const forbidden = folders.error instanceof ApiError && folders.error.status === 403;
  const createFolder = useCreateAccountArrivalsFolder();
  const folderChoices = forbidden
    ? [{ value: MANAGER_MUST_SET, label: ARRIVALS_MESSAGES.managerMustSet }]
    : [
        { value: UNASSIGNED, label: ARRIVALS_MESSAGES.unassigned },
        ...(folders.data ?? []).map((folder) => ({ value: String(folder.id), label: folder.name })),
        ...(folders.data ? [{ value: CREATE_NEW_FOLDER_ID, label: ARRIVALS_MESSAGES.createNewFolder }] : []),
      ];
  /** '** Create New Folder **': asks for the name, makes the folder and chooses it. */
  const chooseNewFolder = async () => {
    if (accountId === null) return;
    const name = await textInputDialog({
      title: 'New arrivals folder',
      label: 'Name',
      initialValue: ARRIVALS_MESSAGES.defaultName,
      confirmLabel: 'Create',
    });
    if (name === undefined) return;
    try {
      const folder = await createFolder.mutateAsync({ accountId, name: name.trim() });
      props.onChange({ ...props.value, arrivalsFolderId: folder.id });
    } catch (failure) {
      showAlert({ type: 'danger', text: errorWhile(failure, 'creating the arrivals folder') });
    }
  };
  const folderValue = forbidden
    ? MANAGER_MUST_SET
    : props.value.arrivalsFolderId === null
      ? UNASSIGNED
      : String(props.value.arrivalsFolderId);
  const workflowChoices = [
    { value: NO_WORKFLOW_ID, label: ARRIVALS_MESSAGES.noWorkflow },
    ...(workflows.data ?? []).map((workflow) => ({ value: String(workflow.id), label: workflow.name })),
  ];
  if (
    props.value.arrivalsFolderId !== null &&
    !forbidden &&
    !folderChoices.some((choice) => choice.value === folderValue)
  )
    folderChoices.push({ value: folderValue, label: `Arrivals folder ${folderValue}` });
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
      <AccountSelect
        value={accountId}
        onChange={(next) =>
          props.onChange({
            accountId: next,
            arrivalsFolderId: next === accountId ? props.value.arrivalsFolderId : null,
            workflowId: next === accountId ? props.value.workflowId : null,
          })
        }
      />
      <Select
        label="Arrivals folder"
        data={folderChoices}
        allowDeselect={false}
        disabled={accountId === null || forbidden}
        value={folderValue}
        error={
          folders.isError && !forbidden ? ARRIVALS_MESSAGES.fetchFailed(folders.error.message) : undefined
        }
        onChange={(next) => {
          if (next === CREATE_NEW_FOLDER_ID) return void chooseNewFolder();
          props.onChange({
            ...props.value,
            arrivalsFolderId:
              next === null || next === UNASSIGNED || next === MANAGER_MUST_SET ? null : Number(next),
          });
        }}
      />
      <Select
        label="Workflow"
        data={workflowChoices}
        allowDeselect={false}
        disabled={accountId === null}
        value={props.value.workflowId === null ? NO_WORKFLOW_ID : String(props.value.workflowId)}
        error={
          workflows.isError
            ? `An error occurred while fetching the data: ${workflows.error.message}`
            : undefined
        }
        onChange={(next) =>
          props.onChange({
            ...props.value,
            workflowId: next === null || next === NO_WORKFLOW_ID ? null : Number(next),
          })
        }
      />
    </SimpleGrid>
  );
};
