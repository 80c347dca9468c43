import { ftpAddress, type PublishButtonBody, sftpAddress } from '@media/contract';
import type { Config } from '../../../platform/config.ts';
import { outboundGuard } from '../../../platform/outbound.ts';
import type { NetworkNode } from './common.ts';
import { webhookUrl } from './webhook.ts';

type Typed = { field: string; host: string; port: number | undefined } | { field: string; problem: string };

const urlTarget = (field: string, value: unknown): Typed | undefined => {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return undefined;
  try {
    const url = webhookUrl(text);
    return { field, host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
  } catch (error) {
    return { field, problem: (error as Error).message };
  }
};

/** The peer a destination node's options name, as typed: the option that names it, its host and port. */
const typedTarget = (node: NetworkNode): Typed | undefined => {
  const { options } = node;
  switch (node.moduleId) {
    case 'webhook':
      return urlTarget('url', options.url);
    case 's3':
      return urlTarget('endpoint', options.endpoint);
    case 'ftp': {
      const address = ftpAddress(String(options.host ?? ''), options.encryption);
      return address && { field: 'host', ...address };
    }
    case 'sftp': {
      const address = sftpAddress(String(options.host ?? ''));
      return address && { field: 'host', ...address };
    }
    default:
      return undefined;
  }
};

/**
 * The first destination of a button that the cloud would run and whose typed address the outbound guard
 * refuses by itself (a literal refused address, a cloud metadata name, a scheme other than http and https):
 * the option and the refusal. A name is checked again on what it resolves to, at each connection.
 */
export const refusedDestination = async (
  config: Config,
  body: PublishButtonBody,
): Promise<{ field: string; message: string } | undefined> => {
  // A button that runs on an edge server reaches the customer's own network: the agent's, not ours.
  if (body.location.type !== 'cloud') return undefined;
  const guard = outboundGuard(config, 'publishing');
  for (const phase of body.phases)
    for (const node of phase.phase.network.nodes) {
      const target = typedTarget(node);
      if (!target) continue;
      if ('problem' in target) return { field: target.field, message: target.problem };
      const refused = await guard.typedRefusal(target.host, target.port);
      if (refused) return { field: target.field, message: refused.message };
    }
  return undefined;
};
