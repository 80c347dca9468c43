import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  KEEP_FOR_CHOICES,
  newButtonChoices,
  PUBLISH_MESSAGES,
  type PublishIcon,
  type PublishLocation,
  type PublishLocationRef,
  type PublishModule,
  type RoleRestriction,
} from '@media/contract';

const locationValue = (location: PublishLocationRef) => `${location.type}:${location.id ?? ''}`;
export const sameLocation = (a: PublishLocationRef, b: PublishLocationRef) =>
  a.type === b.type && (a.id ?? null) === (b.id ?? null);

const keepForValue = (seconds: number | null) => (seconds === null ? 'ever' : String(seconds));
export const keepForSelectData = KEEP_FOR_CHOICES.map((choice) => ({
  value: keepForValue(choice.seconds),
  label: choice.label,
}));
export const keepForOf = (value: string | null) =>
  value === 'ever' || value === null ? null : Number(value);
export { keepForValue };

export const locationSelectData = (locations: readonly PublishLocation[], current?: PublishLocationRef) => {
  const data = locations.map((location) => ({ value: locationValue(location), label: location.name }));
  if (current && !locations.some((location) => sameLocation(location, current)))
    data.push({ value: locationValue(current), label: `Unknown location (${locationValue(current)})` });
  return data;
};
export const locationOf = (value: string): PublishLocationRef => {
  const [type, id] = value.split(':');
  return { type: type === 'edge' ? 'edge' : 'cloud', id: id ? Number(id) : null };
};
export { locationValue };

/** Keep for, 'Where to run' and the icon of a button. */
export const SettingsFields = (props: {
  keepFor: number | null;
  location: PublishLocationRef;
  iconId: number | null;
  locations: readonly PublishLocation[];
  icons: readonly PublishIcon[];
  locationProblem?: string;
  disabled: boolean;
  onKeepFor: (seconds: number | null) => void;
  onLocation: (location: PublishLocationRef) => void;
  onIcon: (iconId: number | null) => void;
  onUploadIcon: () => void;
}) => (
  <Stack gap="sm">
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <Select
        label="Keep for"
        data={keepForSelectData}
        value={keepForValue(props.keepFor)}
        allowDeselect={false}
        disabled={props.disabled}
        onChange={(value) => props.onKeepFor(keepForOf(value))}
      />
      <Select
        label={PUBLISH_MESSAGES.whereToRun}
        data={locationSelectData(props.locations, props.location)}
        value={locationValue(props.location)}
        allowDeselect={false}
        disabled={props.disabled}
        onChange={(value) => value && props.onLocation(locationOf(value))}
      />
    </SimpleGrid>
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <Select
        label="Icon"
        placeholder="No icon"
        clearable
        style={{ flex: 1 }}
        data={props.icons.map((icon) => ({ value: String(icon.id), label: icon.name }))}
        value={props.iconId === null ? null : String(props.iconId)}
        disabled={props.disabled}
        onChange={(value) => props.onIcon(value ? Number(value) : null)}
      />
      <Button variant="default" disabled={props.disabled} onClick={props.onUploadIcon}>
        Upload icon
      </Button>
    </Group>
    {props.locationProblem && (
      <Alert color="yellow" p="xs" data-testid="location-problem">
        {props.locationProblem}
      </Alert>
    )}
  </Stack>
);

/** The card's simple network choice, shown while the network is source → process → destination. */
export const SimpleNetworkFields = (props: {
  modules: readonly PublishModule[];
  processModuleId: string;
  destinationModuleId: string;
  disabled: boolean;
  onProcess: (moduleId: string) => void;
  onDestination: (moduleId: string) => void;
}) => {
  const { sourceProcessing, destinations } = newButtonChoices(props.modules);
  const data = (list: readonly PublishModule[], current: string) => {
    const options = list.map((m) => ({ value: m.id, label: m.name }));
    if (!list.some((m) => m.id === current))
      options.push({
        value: current,
        label: props.modules.find((m) => m.id === current)?.name ?? PUBLISH_MESSAGES.unknownModule,
      });
    return options;
  };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <Select
        label={PUBLISH_MESSAGES.sourceProcessing}
        required
        allowDeselect={false}
        data={data(sourceProcessing, props.processModuleId)}
        value={props.processModuleId}
        disabled={props.disabled}
        onChange={(value) => value && props.onProcess(value)}
      />
      <Select
        label={PUBLISH_MESSAGES.destination}
        required
        allowDeselect={false}
        data={data(destinations, props.destinationModuleId)}
        value={props.destinationModuleId}
        disabled={props.disabled}
        onChange={(value) => value && props.onDestination(value)}
      />
    </SimpleGrid>
  );
};

/** The roles of the site that may use the button (spec3 §6: a new button allows every role). */
export const RoleRestrictionsField = (props: {
  restrictions: readonly RoleRestriction[];
  disabled: boolean;
  onChange: (restrictions: RoleRestriction[]) => void;
}) => (
  <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
    <Text component="legend" size="sm" fw={500} mb={4}>
      Roles allowed to use this button
    </Text>
    {props.restrictions.length === 0 ? (
      <Text size="sm" c="dimmed">
        No roles.
      </Text>
    ) : (
      <Group gap="md">
        {props.restrictions.map((restriction) => (
          <Checkbox
            key={restriction.roleId}
            label={restriction.roleName}
            checked={restriction.allow}
            disabled={props.disabled}
            onChange={(event) => {
              const allow = event.currentTarget.checked;
              props.onChange(
                props.restrictions.map((r) => (r.roleId === restriction.roleId ? { ...r, allow } : r)),
              );
            }}
          />
        ))}
      </Group>
    )}
  </fieldset>
);
