/**
 * The pure half of the rights: what an entity reference is and how it is named. The queries that read
 * grants, accesses and the hierarchy (loadRights, requireRight, visibleSiteIds...) live in the access
 * module (modules/access/service.ts), since they read its tables and the organisation's.
 */
export type EntityRef =
  | { kind: 'cloud' }
  | { kind: 'reseller' | 'siteGroup' | 'site' | 'account'; id: number };

const ENTITY_LABEL = {
  reseller: 'Reseller',
  siteGroup: 'Site group',
  site: 'Site',
  account: 'Account',
} as const;

/** The entity's kind as the 404 names it ("Site not found"). */
export const entityLabel = (entity: EntityRef) =>
  entity.kind === 'cloud' ? 'Cloud' : ENTITY_LABEL[entity.kind];
