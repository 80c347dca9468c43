import { Button, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';

export const ColorSchemeToggle = () => {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="subtle"
      size="xs"
      onClick={() => setColorScheme(next)}
      aria-label={`Switch to ${next} theme`}
    >
      {scheme === 'dark' ? 'Light' : 'Dark'}
    </Button>
  );
};
