import os from 'node:os';
import type { AgentCommand } from '@media/contract';
import type { CloudClient } from './cloud.ts';

export type CommandResult = Record<string, string | number | boolean | null>;

/** What a command reaches in the agent: the cloud, and the files it remembers having handed over. */
export type CommandAgent = {
  cloud: CloudClient;
  /** Every file is looked at again (service restart or rescan). */
  forgetAll: () => void;
  /** The files of one endpoint are looked at again, as if they were new. */
  forgetEndpoint: (endpointId: number | null) => void;
};

const round = (n: number) => Math.round(n * 100) / 100;

/** The answer to one of the cloud's commands (machine load, speed test, service and endpoint actions). */
export const runCommand = async (command: AgentCommand, agent: CommandAgent): Promise<CommandResult> => {
  switch (command.action) {
    case 'machineLoad': {
      const [load1 = 0, load5 = 0, load15 = 0] = os.loadavg();
      return {
        load1: round(load1),
        load5: round(load5),
        load15: round(load15),
        cpus: os.cpus().length,
        freeMemoryMb: Math.round(os.freemem() / 2 ** 20),
        totalMemoryMb: Math.round(os.totalmem() / 2 ** 20),
      };
    }
    case 'runNewEdgeSpeedTest': {
      const started = performance.now();
      const rounds = 3;
      for (let i = 0; i < rounds; i += 1) await agent.cloud.queuedItems(1);
      return { latencyMs: round((performance.now() - started) / rounds), rounds };
    }
    case 'service:restart':
    case 'service:rescan':
      agent.forgetAll();
      return { done: true };
    case 'endpoint:reset':
      agent.forgetEndpoint(command.targetId);
      return { done: true };
    case 'endpoint:enable':
    case 'endpoint:disable':
      // The status comes with the next heartbeat's endpoints; nothing to do here.
      return { done: true };
    default:
      return { error: `This agent does not know the action ${command.action}` };
  }
};
