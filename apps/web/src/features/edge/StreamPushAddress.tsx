import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { streamPushAddress } from '@media/contract';
import { useEdgeServer, useService } from '../../api/edge.ts';
import type { OptionValue } from './OptionFields.tsx';

const Copy = ({ value, label }: { value: string; label: string }) => (
  <CopyButton value={value}>
    {({ copied, copy }) => (
      <Button size="compact-xs" variant="default" color={copied ? 'teal' : undefined} onClick={copy}>
        {copied ? 'Copied' : label}
      </Button>
    )}
  </CopyButton>
);

/**
 * Where senders push a stream endpoint's stream (issue 16): the RTMP URL and stream key, or the SRT
 * listener's address, at the edge server's "Address for streams". Nothing for endpoints nobody pushes to.
 */
export const StreamPushAddress = (props: {
  serviceId: number;
  typeId: string;
  options: Record<string, OptionValue>;
}) => {
  const service = useService(props.serviceId);
  const edge = useEdgeServer(service.data?.edgeServerId ?? 0);
  const host = edge.data?.advancedOptions.streamAddress ?? '';
  const address = streamPushAddress(props.typeId, props.options, host);
  if (!address || !service.data) return null;
  return (
    <Stack gap={4} data-testid="stream-push-address">
      <Text size="sm" fw={500}>
        {props.typeId === 'RtmpPushEndpoint' ? 'Push to' : 'Send to (SRT caller)'}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid="stream-push-url" style={{ wordBreak: 'break-all' }}>
          {address.url}
        </Code>
        <Copy value={address.url} label="Copy URL" />
      </Group>
      {address.streamKey !== undefined && (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm">Stream key</Text>
          <Code data-testid="stream-push-key">{address.streamKey || '(none yet)'}</Code>
          {address.streamKey && <Copy value={address.streamKey} label="Copy key" />}
        </Group>
      )}
      {!host.trim() && (
        <Text size="xs" c="dimmed">
          Set the edge server’s “Address for streams” (its advanced options) to see the whole address.
        </Text>
      )}
    </Stack>
  );
};
