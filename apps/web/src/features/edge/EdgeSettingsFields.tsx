import { Button, Collapse, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import {
  EDGE_LOG_LEVELS,
  EDGE_MESSAGES,
  type EdgeAdvancedOptions,
  edgeAdvancedOptionsSchema,
  type Me,
} from '@media/contract';
import { useId } from 'react';
import { useMe } from '../../api/auth.ts';
import { ALL_ROWS, useOrgList } from '../../api/organisation.ts';
import { managedSites } from './edge-page.ts';

/** What is wrong with an address for streams, in the contract's words; undefined when it is fine. */
const streamAddressError = (value: string) => {
  const parsed = edgeAdvancedOptionsSchema.shape.streamAddress.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

export type EdgeSettings = { siteId: number | null; advancedOptions: EdgeAdvancedOptions };

/** The site select: sites the user manages, plus the edge's own site when it is another. */
const SiteSelect = (props: {
  value: number | null;
  onChange: (siteId: number | null) => void;
  current?: { id: number; name: string };
}) => {
  const me = useMe();
  const sites = useOrgList('sites', ALL_ROWS);
  const choices = managedSites(sites.data?.results ?? [], me.data as Me).map((site) => ({
    value: String(site.id),
    label: site.name,
  }));
  if (props.current && !choices.some((choice) => choice.value === String(props.current?.id)))
    choices.unshift({ value: String(props.current.id), label: props.current.name });
  return (
    <Select
      label="Site"
      placeholder={EDGE_MESSAGES.selectPlaceholder}
      data={choices}
      clearable
      searchable
      nothingFoundMessage="No site you manage matches"
      error={sites.isError ? `An error occurred while fetching the data: ${sites.error.message}` : undefined}
      value={props.value === null ? null : String(props.value)}
      onChange={(next) => props.onChange(next === null ? null : Number(next))}
    />
  );
};

/** The site and the advanced options (log level, concurrent ingests, upload limit, stream address) of an edge card. */
export const EdgeSettingsFields = (props: {
  value: EdgeSettings;
  onChange: (next: EdgeSettings) => void;
  advancedOpen: boolean;
  onToggleAdvanced: () => void;
  currentSite?: { id: number; name: string };
}) => {
  const advancedId = useId();
  const advanced = props.value.advancedOptions;
  const setAdvanced = (change: Partial<EdgeAdvancedOptions>) =>
    props.onChange({ ...props.value, advancedOptions: { ...advanced, ...change } });
  return (
    <Stack gap="xs">
      <SiteSelect
        value={props.value.siteId}
        current={props.currentSite}
        onChange={(siteId) => props.onChange({ ...props.value, siteId })}
      />
      <div>
        <Button
          variant="subtle"
          size="compact-sm"
          px={0}
          aria-expanded={props.advancedOpen}
          aria-controls={advancedId}
          onClick={props.onToggleAdvanced}
        >
          {props.advancedOpen ? '▾' : '▸'} Advanced options
        </Button>
        <Collapse expanded={props.advancedOpen} id={advancedId}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" pt="xs">
            <Select
              label="Log level"
              data={[...EDGE_LOG_LEVELS]}
              allowDeselect={false}
              value={advanced.logLevel}
              onChange={(next) => next && setAdvanced({ logLevel: next as EdgeAdvancedOptions['logLevel'] })}
            />
            <NumberInput
              label="Max concurrent ingests"
              min={1}
              max={32}
              clampBehavior="strict"
              allowDecimal={false}
              value={advanced.maxConcurrentIngests}
              onChange={(next) => setAdvanced({ maxConcurrentIngests: Number(next) || 1 })}
            />
            <NumberInput
              label="Upload limit (Mbit/s)"
              description="0 means no limit"
              min={0}
              max={100_000}
              clampBehavior="strict"
              allowDecimal={false}
              value={advanced.uploadLimitMbps}
              onChange={(next) => setAdvanced({ uploadLimitMbps: Number(next) || 0 })}
            />
            <TextInput
              label="Address for streams"
              description="The host name or IP address senders push to"
              placeholder="edge.example.com"
              maxLength={253}
              value={advanced.streamAddress ?? ''}
              error={streamAddressError(advanced.streamAddress ?? '')}
              onChange={(event) => setAdvanced({ streamAddress: event.currentTarget.value })}
            />
          </SimpleGrid>
        </Collapse>
      </div>
    </Stack>
  );
};
