import { useMe } from '../../api/auth.ts';
import { EdgeServersList } from './EdgeServersList.tsx';

/** The edge servers of a site, on the site page (site context); new ones are the manager's, on this site. */
export const SiteEdgeServers = ({ siteId }: { siteId: number }) => {
  const me = useMe();
  if (!me.data) return null;
  return <EdgeServersList scope={{ context: 'site', id: siteId }} ownerId={me.data.id} />;
};
