import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** The agent token of a just created edge server: shown this once, never again (only its hash is kept). */
export const AgentTokenNotice = ({ token, onDismiss }: { token: string; onDismiss: () => void }) => (
  <Alert color="yellow" title="Agent token" data-testid="agent-token" mb="sm">
    <Stack gap="xs">
      <Text size="sm">
        This token is shown only once. Copy it now and give it to the edge agent; it cannot be shown again.
      </Text>
      <Code block data-testid="agent-token-value" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {token}
      </Code>
      <Group gap="xs">
        <CopyButton value={token}>
          {({ copied, copy }) => (
            <Button size="xs" color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? 'Copied' : 'Copy token'}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="default" onClick={onDismiss}>
          I have copied it
        </Button>
      </Group>
    </Stack>
  </Alert>
);
