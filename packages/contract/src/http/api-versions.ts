import { z } from 'zod';

/** Version the metadata import (`POST /api/mediaUpdate`) requires. */
export const MEDIA_UPDATE_API_VERSION = '20210705';

export const apiVersionsSchema = z.object({
  mediaUpdate: z.string(),
  ingest: z.string(),
  nodes: z.string(),
  supported: z.array(z.string()),
});
export type ApiVersions = z.infer<typeof apiVersionsSchema>;

export const API_VERSIONS: ApiVersions = {
  mediaUpdate: MEDIA_UPDATE_API_VERSION,
  ingest: MEDIA_UPDATE_API_VERSION,
  nodes: MEDIA_UPDATE_API_VERSION,
  supported: [MEDIA_UPDATE_API_VERSION],
};
