import {
  CLOUD_INSTALLED_MODULES,
  EDGE_INSTALLED_MODULES,
  type PublishContextKind,
  type PublishLocation,
} from '@media/contract';
import * as repo from './repo.ts';
import { type Call, readScope } from './scope.ts';

export const CLOUD_LOCATION_NAME = 'Cloud';

/**
 * Where a context's buttons can run: the cloud, then the edge servers of the site (an account's site),
 * available while their agent is heard from.
 */
export const listLocations = async ({
  ctx,
  actor,
  kind,
  id,
}: Call<{ kind: PublishContextKind; id: number }>): Promise<PublishLocation[]> => {
  const scope = await readScope(ctx.db, actor, kind, id);
  const edges = await repo.findSiteEdgeServers(ctx.db, scope.siteId);
  return [
    {
      type: 'cloud',
      id: null,
      name: CLOUD_LOCATION_NAME,
      available: true,
      modules: { ...CLOUD_INSTALLED_MODULES },
    },
    ...edges.map((edge) => ({
      type: 'edge' as const,
      id: edge.id,
      name: edge.name,
      available: edge.available,
      modules: { ...EDGE_INSTALLED_MODULES },
    })),
  ];
};
