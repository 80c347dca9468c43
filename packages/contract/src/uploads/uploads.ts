import { z } from 'zod';
import { ASPECTS } from '../config/ingest-formats.ts';
import { collectionOf, pageQuerySchema } from '../http/envelope.ts';
import { idTextSchema } from '../http/input.ts';
import { cleanName } from '../names/clean-name.ts';

/** spec1 §4: the upload as a whole, and each chosen file. */
export const UPLOAD_STATES = ['choosing', 'uploading', 'complete'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];
export const UPLOAD_FILE_STATUSES = [
  'choosing',
  'error',
  'complete',
  'uploading',
  'preparing',
  'unknown',
] as const;
export type UploadFileStatus = (typeof UPLOAD_FILE_STATUSES)[number];

/** spec1 §5: answers that retrying cannot mend. */
export const UPLOAD_PERMANENT_ERROR_STATUSES: readonly number[] = [403, 404, 413, 415, 500, 501];
export const MSG_UPLOAD_TYPE_REFUSED = (extension: string) =>
  `Files of type ${extension || '(none)'} cannot be uploaded here`;
export const MSG_UPLOAD_TOO_LARGE = (maxBytes: number) =>
  `The file is larger than the ${maxBytes} bytes allowed`;
export const MSG_UPLOAD_NO_FILE = 'No file in the upload (field uploadfile)';
export const MSG_METADATA_MAPPING_TARGET = (account: string) =>
  `Metadata mapping will import to ${account} account`;

/** spec1 §3: the location defaults to 'File Uploads/' and today's date (yyyy-MM-dd, spec1 §5). */
export const UPLOAD_LOCATION_PREFIX = 'File Uploads/';
export const defaultUploadLocation = (today: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${UPLOAD_LOCATION_PREFIX}${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
};

/** What the web upload takes: media (video, audio, stills) and documents; metadata mappings are CSV. */
export const MEDIA_EXTENSIONS = [
  'mov',
  'mp4',
  'm4v',
  'mxf',
  'avi',
  'mkv',
  'mpg',
  'mpeg',
  'ts',
  'mts',
  'm2ts',
  'webm',
  'wmv',
  'dv',
  'r3d',
  'braw',
  'wav',
  'aif',
  'aiff',
  'mp3',
  'm4a',
  'aac',
  'flac',
  'ogg',
  'jpg',
  'jpeg',
  'png',
  'tif',
  'tiff',
  'gif',
  'bmp',
  'dpx',
  'exr',
  'heic',
  'webp',
] as const;
export const DOCUMENT_EXTENSIONS = [
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'rtf',
  'txt',
  'csv',
  'srt',
  'vtt',
  'xml',
  'edl',
  'aaf',
  'fcpxml',
  'zip',
] as const;
export const UPLOAD_KINDS = ['media', 'document', 'metadataMapping'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const fileExtension = (fileName: string) => {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
};

/** The kind a web upload of this file would be, or undefined when it is not taken. */
export const webUploadKindOf = (fileName: string): 'media' | 'document' | undefined => {
  const extension = fileExtension(fileName);
  if ((MEDIA_EXTENSIONS as readonly string[]).includes(extension)) return 'media';
  if ((DOCUMENT_EXTENSIONS as readonly string[]).includes(extension)) return 'document';
  return undefined;
};

/** Media uploads that are one picture: they become a still (a JPEG), not a video proxy. */
export const STILL_EXTENSIONS = ['jpg', 'jpeg', 'png', 'tif', 'tiff', 'gif', 'bmp', 'dpx', 'exr'] as const;
export const isStillFileName = (fileName: string) =>
  (STILL_EXTENSIONS as readonly string[]).includes(fileExtension(fileName));

export const isCsvFileName = (fileName: string) => fileExtension(fileName) === 'csv';

/** A name for the stored file: the user's upload name, kept to letters, digits and a few marks. */
export const UPLOAD_NAME_MAX = 255;

/** spec1 §7: the query of an upload (the file itself is the multipart field uploadfile). */
export const uploadQuerySchema = z.object({
  uploadname: z
    .string()
    .overwrite(cleanName)
    .trim()
    .min(1, { error: 'This field is required' })
    .max(UPLOAD_NAME_MAX),
  format: z.string().trim().max(40).optional(),
  aspect: z.enum(Object.keys(ASPECTS) as [keyof typeof ASPECTS, ...(keyof typeof ASPECTS)[]]).optional(),
  location: z.string().overwrite(cleanName).trim().max(1000).optional(),
});
export type UploadQuery = z.infer<typeof uploadQuerySchema>;

export const uploadSchema = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  kind: z.enum(UPLOAD_KINDS),
  name: z.string(),
  fileName: z.string(),
  location: z.string(),
  format: z.string().nullable(),
  aspect: z.string().nullable(),
  size: z.number().int(),
  uploadedBy: z.string().nullable(),
  createdAt: z.string(),
  status: z
    .enum(['received', 'processing', 'ready', 'failed'])
    .describe('received: stored; processing: its proxy is being made; ready: playable; failed'),
  /** Why processing failed (a failed upload's only explanation). */
  error: z.string().nullable(),
  /** Percent done while processing. */
  progress: z.number().int().nullable(),
  /** The media tree node a media upload became (null for documents, or once the node is deleted). */
  nodeId: z.number().int().nullable(),
  /** Where the node is in the account's tree (its path), when there is one. */
  nodePath: z.string().nullable(),
  /** The node's media, to play it. */
  mediaId: z.number().int().nullable(),
});
export type Upload = z.infer<typeof uploadSchema>;

/** GET /api/accounts/{id}/uploads/{uploadId}/file: the stored file of one upload, as a download. */
export const uploadFileParamsSchema = z.object({ id: idTextSchema, uploadId: idTextSchema });

export const uploadsQuerySchema = pageQuerySchema.extend({ kind: z.enum(UPLOAD_KINDS).optional() });

/** GET /api/accounts/{id}/uploads: the page, and whether the caller may upload here (asked before a byte). */
export const uploadsResponseSchema = collectionOf(uploadSchema).extend({
  mayUpload: z
    .boolean()
    .describe(
      "Whether the caller may upload files of this kind to the account (the upload's own rights rule)",
    ),
});
export type UploadsPage = z.infer<typeof uploadsResponseSchema>;
