import { type ApiVersions, apiVersionsSchema } from '@media/contract';

export type EdgeAgentOptions = { cloudUrl: string };

/** Asks the cloud which API versions it speaks; the agent's first step before any ingest call. */
export const fetchApiVersions = async (options: EdgeAgentOptions): Promise<ApiVersions> => {
  const response = await fetch(new URL('/config/apiVersions.json', options.cloudUrl));
  if (!response.ok) throw new Error(`The cloud answered ${response.status} for its API versions`);
  return apiVersionsSchema.parse(await response.json());
};
