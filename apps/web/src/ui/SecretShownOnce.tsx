import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A secret the server shows this once (an agent token, an API token, a webhook's signing secret): in full, with
 * a copy button and a button that puts it away for good.
 */
export const SecretShownOnce = (props: {
  title: string;
  message: string;
  secret: string;
  /** The alert's test id; its value's is this with `-value`. */
  testId: string;
  dismissLabel: string;
  /** The copy button's label (an agent's or API token's by default). */
  copyLabel?: string;
  onDismiss: () => void;
  children?: ReactNode;
}) => (
  <Alert color="yellow" title={props.title} data-testid={props.testId} mb="sm">
    <Stack gap="xs">
      <Text size="sm">{props.message}</Text>
      <Code
        block
        data-testid={`${props.testId}-value`}
        style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
      >
        {props.secret}
      </Code>
      <Group gap="xs">
        <CopyButton value={props.secret}>
          {({ copied, copy }) => (
            <Button size="xs" color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? 'Copied' : (props.copyLabel ?? 'Copy token')}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="default" onClick={props.onDismiss}>
          {props.dismissLabel}
        </Button>
      </Group>
      {props.children}
    </Stack>
  </Alert>
);
