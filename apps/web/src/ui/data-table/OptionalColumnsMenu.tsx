import { Button, Checkbox, Menu, Stack } from '@mantine/core';
import { useTimeout } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** spec3 §9: the optional-column menu closes itself after 4000 ms. */
export const COLUMNS_MENU_AUTO_CLOSE_MS = 4000;

type OptionalColumn = { id: string; label: string; visible: boolean };

export const OptionalColumnsMenu = (props: {
  columns: OptionalColumn[];
  onToggle: (id: string, visible: boolean) => void;
}) => {
  const [opened, setOpened] = useState(false);
  const autoClose = useTimeout(() => setOpened(false), COLUMNS_MENU_AUTO_CLOSE_MS);
  useEffect(() => {
    if (opened) autoClose.start();
    return autoClose.clear;
  }, [opened, autoClose.start, autoClose.clear]);

  return (
    <Menu opened={opened} onChange={setOpened} closeOnItemClick={false} position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" size="xs">
          Columns
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="optional-columns-menu">
        <Stack gap={6} p={6}>
          {props.columns.map((column) => (
            <Checkbox
              key={column.id}
              label={column.label}
              checked={column.visible}
              onChange={(e) => {
                // Every choice restarts the auto-close countdown.
                autoClose.clear();
                autoClose.start();
                props.onToggle(column.id, e.currentTarget.checked);
              }}
            />
          ))}
        </Stack>
      </Menu.Dropdown>
    </Menu>
  );
};
