/** The media tree's public face (spec3 §3, §4, §7): one file per use case. */
export { notHidden, treeAccess } from './access.ts';
export { postNode, renameNode, savePermissions, setField } from './changes.ts';
export { createNode } from './creation.ts';
export {
  clipRenderState,
  edlFile,
  edlPreviousVersions,
  edlSources,
  renderClipFile,
  saveEdlData,
} from './edls.ts';
export { addIngestedMedia, addLiveMedia, arrivalsFolderPath } from './ingested.ts';
export { listNodes, nodeDetails } from './listing.ts';
export { dropLiveSegments, livePlaylist, liveSegmentFile } from './live.ts';
export { mediaFile, mediaInfo, thumbImage } from './media.ts';
export { deleteSubtitles, findSubtitle, listSubtitles, putSubtitles } from './subtitles.ts';
export { transfer, transferTypes } from './transfers.ts';
