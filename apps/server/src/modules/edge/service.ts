// The edge module's public face: routes and other modules import its use cases from here. Each use case
// lives in the file of its area: edge servers, their services, and the services' endpoints.

export { requireEdgeServer, requireEndpoint } from './access.ts';
export {
  createEdgeServer,
  findEdgeServer,
  getEdgeServer,
  listEdgeServers,
  runEdgeAction,
  setSupportConnection,
  trashEdgeServer,
  updateEdgeServer,
} from './edge-servers.service.ts';
export { recordEndpointRecording, recordEndpointReports } from './endpoint-reports.ts';
export {
  createEndpoint,
  findEndpoint,
  findEndpointWithEdge,
  getEndpoint,
  getEndpointType,
  listEndpointsOfAccount,
  listEndpointsOfArrivalsFolder,
  listEndpointsOfEdgeServer,
  listEndpointsOfService,
  listEndpointTypesOfService,
  runEndpointAction,
  trashEndpoint,
  updateEndpoint,
} from './endpoints.service.ts';
export { edgeServerChannels } from './live.ts';
export {
  createService,
  getService,
  getServiceType,
  listServiceGroups,
  listServices,
  listServiceTemplates,
  listServiceTypesOfEdge,
  queryServiceSummary,
  runServiceAction,
  trashService,
  updateService,
} from './services.service.ts';
