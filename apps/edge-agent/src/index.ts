export { AGENT_VERSION, EdgeAgent, type EdgeAgentSettings, SUPPORTED_ENDPOINT_TYPES } from './agent.ts';
export { CloudClient, CloudError, type EdgeAgentOptions, fetchApiVersions } from './cloud.ts';
export { ingestItem } from './ingest.ts';
export { isInsideRoots, listFiles, queueIdOf, SettleTracker } from './scanner.ts';
export { openSource } from './sources/index.ts';
export { FileUploadStorage, uploadItemFile } from './upload.ts';
