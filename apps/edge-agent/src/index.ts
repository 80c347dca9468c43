export { AGENT_VERSION, EdgeAgent, type EdgeAgentSettings, SUPPORTED_ENDPOINT_TYPES } from './agent.ts';
export { CloudClient, CloudError, type EdgeAgentOptions, fetchApiVersions } from './cloud.ts';
export { probe, proxySize, thumbnail } from './media.ts';
export { isInsideRoots, listFiles, queueIdOf, SettleTracker } from './scanner.ts';
