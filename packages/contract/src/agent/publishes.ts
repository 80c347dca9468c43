import { z } from 'zod';
import { networkNodeSchema, publishNetworkSchema } from '../publishing/publishing.ts';
import { publishOutputSchema } from '../publishing/runs.ts';

/**
 * The publishes an edge server's agent carries out (DESIGN "Publishing": a publish runs where its button's
 * location says). The cloud's job hands a publish of an edge location over; the agent lists, claims, reads
 * the source of, and reports on the publishes of its own edge server only.
 */

/** A publish waiting for (queued) or under way on (running) the edge server, with what its run needs. */
export const agentPublishSchema = z.object({
  id: z.number().int(),
  status: z.enum(['queued', 'running']).describe('running: claimed before, to be started again'),
  nodeName: z.string().describe('The published node, which names the exported file'),
  media: z.object({
    duration: z.number().nullable().describe('Seconds, as the cloud knows it'),
    contentType: z.string().nullable(),
  }),
  network: publishNetworkSchema.describe(
    "The button's first phase network, options filled with the publish's own (userPublishData)",
  ),
  chains: z
    .array(z.object({ processes: z.array(networkNodeSchema), destination: networkNodeSchema }))
    .describe('Each destination with the processes that make its file, in the order they run'),
});
export type AgentPublish = z.infer<typeof agentPublishSchema>;

export const agentPublishesQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

/** How far a publish is, what it did, and how it ended; done runs the post modules on the cloud. */
export const agentPublishProgressSchema = z.strictObject({
  progress: z.number().int().min(0).max(100).optional(),
  log: z.array(z.string().max(2000)).max(100).optional().describe('Lines added to the log'),
  status: z.enum(['done', 'failed']).optional(),
  outputs: z
    .array(publishOutputSchema.extend({ moduleId: z.string().max(100), location: z.string().max(4000) }))
    .max(20)
    .optional()
    .describe('Where the destinations put the result (done)'),
  error: z.string().max(2000).optional().describe('Why it failed (failed)'),
});
export type AgentPublishProgress = z.infer<typeof agentPublishProgressSchema>;

/** What a report answers: the publish's status now (done or failed once it ended). */
export const agentPublishReportAnswerSchema = z.object({
  ok: z.literal(true),
  status: z.enum(['running', 'done', 'failed']),
});

export const AGENT_PUBLISH_MESSAGES = {
  waiting: (edge: string) => `Waiting for edge server ${edge}`,
  started: (edge: string) => `Started on edge server ${edge}`,
  startedAgain: (edge: string) => `Started again on edge server ${edge}`,
  notRunning: (status: string) => `The publish is ${status}; it is not running on this edge server`,
  doneWithoutOutputs: 'A publish done must say where its result went',
  failedWithoutError: 'A publish failed must say why',
} as const;
