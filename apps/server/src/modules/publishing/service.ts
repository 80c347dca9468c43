// The publishing area's use cases (spec3 §7 Publishing), one file each; routes call them from here.
export {
  buttonStatus,
  createButton,
  listButtons,
  listRoleRestrictions,
  saveRoleRestrictions,
  trashButton,
  updateButton,
} from './buttons.ts';
export {
  claimEdgePublish,
  edgePublishSource,
  listEdgePublishes,
  type PublishingEdge,
  reportEdgePublish,
} from './edge-runs.ts';
export { type IncomingIcon, iconImage, listIcons, trashIcon, uploadIcon } from './icons.ts';
export { listLocations } from './locations.ts';
export { listModules, moduleAction } from './modules.ts';
