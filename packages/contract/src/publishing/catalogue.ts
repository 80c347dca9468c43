import { SUBTITLE_LANGUAGE_NAMES, SUBTITLE_LANGUAGES } from '../nodes/subtitles.ts';
import { FTP_ENCRYPTIONS } from './peer-address.ts';
import type { PublishModule } from './publishing.ts';

const PROCESS_INPUTS = ['source-media', 'transcode', 'watermark', 'burn-subtitles'];

/** What the watermark burns in besides its text: nothing, the publishing button's icon, an uploaded icon. */
export const WATERMARK_IMAGES = ['none', 'button-icon', 'uploaded'] as const;
export type WatermarkImage = (typeof WATERMARK_IMAGES)[number];
/** The watermark's option naming the uploaded icon (POST /api/{ctx}/publishIcons) when image is 'uploaded'. */
export const WATERMARK_ICON_FIELD = 'iconId';

const module = (
  fields: Omit<PublishModule, 'form' | 'iconId' | 'nonSelectableInputModuleIds'> & Partial<PublishModule>,
) => ({ form: null, iconId: null, nonSelectableInputModuleIds: [], ...fields }) satisfies PublishModule;

/**
 * The publish modules this product ships (spec3 §3 Publish module). A source feeds process modules, process
 * modules feed each other or a destination, and post modules run after a destination.
 */
export const PUBLISH_MODULES: readonly PublishModule[] = [
  module({
    id: 'source-media',
    name: 'Media source',
    description: 'The media being published',
    type: 'source',
    selectable: false,
    version: '1.0',
    schema: [
      {
        name: 'file',
        type: 'select',
        label: 'File',
        allowedValues: ['proxy', 'source'],
        valueLabels: { proxy: 'The playable proxy', source: 'The original, when the cloud keeps it' },
        defaultValue: 'proxy',
      },
    ],
    defaultInputModuleIds: [],
    minInputModules: 0,
    maxInputModules: 0,
    selectableInputModuleIds: [],
  }),
  module({
    id: 'as-is',
    name: 'As is',
    description: 'Publish the media without processing',
    type: 'process',
    selectable: true,
    version: '1.0',
    schema: [],
    defaultInputModuleIds: ['source-media'],
    minInputModules: 1,
    maxInputModules: 1,
    selectableInputModuleIds: ['source-media'],
  }),
  module({
    id: 'transcode',
    name: 'Transcode',
    description: 'Encode the media to another format',
    type: 'process',
    selectable: true,
    version: '2.1',
    schema: [
      {
        name: 'format',
        type: 'select',
        label: 'Format',
        required: true,
        allowedValues: ['mp4', 'mov', 'webm'],
        defaultValue: 'mp4',
      },
      {
        name: 'videoBitrate',
        type: 'integer',
        label: 'Video bit rate (kbps)',
        minValue: 200,
        maxValue: 50_000,
        defaultValue: 5000,
      },
    ],
    defaultInputModuleIds: ['source-media'],
    minInputModules: 1,
    maxInputModules: 1,
    selectableInputModuleIds: PROCESS_INPUTS,
  }),
  module({
    id: 'watermark',
    name: 'Watermark',
    description: 'Burn a text, an image or both into the picture',
    type: 'process',
    selectable: true,
    version: '1.3',
    schema: [
      // One of text or image: the text is asked for while there is no image.
      {
        name: 'text',
        type: 'text',
        label: 'Text',
        requiredIf: ['image', 'equal', 'none'],
        maxLength: 60,
      },
      {
        name: 'position',
        type: 'select',
        label: 'Position',
        allowedValues: ['top-left', 'top-right', 'bottom-left', 'bottom-right'],
        defaultValue: 'bottom-right',
      },
      {
        name: 'image',
        type: 'select',
        label: 'Image',
        // Not required: a button saved before images has none, and means text only.
        allowedValues: [...WATERMARK_IMAGES],
        valueLabels: {
          none: 'None (text only)',
          'button-icon': "The button's icon",
          uploaded: 'An uploaded icon',
        },
        defaultValue: 'none',
      },
      {
        name: WATERMARK_ICON_FIELD,
        type: 'select-combo',
        selectOnly: true,
        label: 'Icon',
        // The icons of the account (and its site) are the choices: the modules list of a context fills them.
        allowedValues: [],
        showWhen: "image == 'uploaded'",
        requiredIf: ['image', 'equal', 'uploaded'],
      },
    ],
    defaultInputModuleIds: ['source-media'],
    minInputModules: 1,
    maxInputModules: 1,
    selectableInputModuleIds: PROCESS_INPUTS,
  }),
  module({
    id: 'burn-subtitles',
    name: 'Burn subtitles',
    description: 'Burn the subtitles of a language into the picture',
    type: 'process',
    selectable: true,
    version: '1.0',
    schema: [
      {
        name: 'language',
        type: 'select',
        label: 'Language',
        required: true,
        allowedValues: [...SUBTITLE_LANGUAGES],
        valueLabels: { ...SUBTITLE_LANGUAGE_NAMES },
        defaultValue: 'en',
      },
    ],
    defaultInputModuleIds: ['source-media'],
    minInputModules: 1,
    maxInputModules: 1,
    selectableInputModuleIds: PROCESS_INPUTS,
  }),
  module({
    id: 'folder-export',
    name: 'Export to folder',
    description: 'Write the result into a folder of the location',
    type: 'destination',
    selectable: true,
    version: '1.0',
    schema: [{ name: 'folder', type: 'text', label: 'Folder', required: true, maxLength: 200 }],
    defaultInputModuleIds: ['as-is'],
    minInputModules: 1,
    maxInputModules: 4,
    selectableInputModuleIds: ['as-is', 'transcode', 'watermark', 'burn-subtitles'],
  }),
  module({
    id: 'youtube',
    name: 'YouTube',
    description: 'Upload to a YouTube channel',
    type: 'destination',
    selectable: true,
    version: '3.0',
    schema: [
      { name: 'title', type: 'text', label: 'Title', required: true, maxLength: 100 },
      { name: 'description', type: 'textarea', label: 'Description', maxLength: 5000 },
      {
        name: 'privacy',
        type: 'select',
        label: 'Privacy',
        required: true,
        allowedValues: ['public', 'unlisted', 'private'],
        defaultValue: 'unlisted',
      },
      { name: 'connect', type: 'button', label: 'Connect account', action: 'connect' },
    ],
    defaultInputModuleIds: ['transcode'],
    minInputModules: 1,
    maxInputModules: 1,
    selectableInputModuleIds: ['as-is', 'transcode', 'watermark', 'burn-subtitles'],
  }),
  module({
    id: 'ftp',
    name: 'FTP upload',
    description: 'Send the result to an FTP server, plain or encrypted with TLS (FTPS)',
    type: 'destination',
    selectable: true,
    version: '1.2',
    schema: [
      { name: 'host', type: 'text', label: 'Host', required: true, maxLength: 200 },
      { name: 'username', type: 'text', label: 'User name', required: true, maxLength: 100 },
      { name: 'password', type: 'password', label: 'Password', maxLength: 200 },
      { name: 'directory', type: 'text', label: 'Directory', maxLength: 200, defaultValue: '/' },
      {
        name: 'encryption',
        type: 'select',
        label: 'Encryption',
        // Not required: a button saved before FTPS has none, and means plain FTP (no publish-time question).
        allowedValues: [...FTP_ENCRYPTIONS],
        valueLabels: {
          none: 'None (plain FTP)',
          explicit: 'Explicit FTPS (AUTH TLS, port 21)',
          implicit: 'Implicit FTPS (port 990)',
        },
        defaultValue: 'none',
      },
      {
        name: 'trustAnyCertificate',
        type: 'checkbox',
        label: "Accept self-signed certificates (the server's certificate is not checked)",
        defaultValue: false,
        showWhen: "encryption != 'none'",
      },
    ],
    defaultInputModuleIds: ['as-is'],
    minInputModules: 1,
    maxInputModules: 4,
    selectableInputModuleIds: ['as-is', 'transcode', 'watermark', 'burn-subtitles'],
  }),
  module({
    id: 'sftp',
    name: 'SFTP upload',
    description: 'Send the result to a server over SSH (SFTP), with a password or a private key',
    type: 'destination',
    selectable: true,
    version: '1.0',
    schema: [
      {
        name: 'host',
        type: 'text',
        label: 'Host',
        required: true,
        maxLength: 200,
        placeholder: 'host or host:port (port 22 if none)',
      },
      { name: 'username', type: 'text', label: 'User name', required: true, maxLength: 100 },
      { name: 'password', type: 'password', label: 'Password', maxLength: 200 },
      {
        name: 'privateKey',
        type: 'textarea',
        label: 'Private key (OpenSSH or PEM, instead of or with the password)',
        maxLength: 16_000,
      },
      { name: 'directory', type: 'text', label: 'Directory', maxLength: 200, defaultValue: '/' },
    ],
    defaultInputModuleIds: ['as-is'],
    minInputModules: 1,
    maxInputModules: 4,
    selectableInputModuleIds: ['as-is', 'transcode', 'watermark', 'burn-subtitles'],
  }),
  module({
    id: 's3',
    name: 'S3 bucket',
    description: 'Put the result into an S3-compatible bucket (AWS, MinIO, Ceph)',
    type: 'destination',
    selectable: true,
    version: '1.0',
    schema: [
      { name: 'bucket', type: 'text', label: 'Bucket', required: true, maxLength: 63 },
      { name: 'prefix', type: 'text', label: 'Key prefix', maxLength: 500 },
      { name: 'endpoint', type: 'url', label: 'Endpoint (empty for AWS)', maxLength: 500 },
      { name: 'region', type: 'text', label: 'Region', maxLength: 50, defaultValue: 'us-east-1' },
      { name: 'accessKeyId', type: 'text', label: 'Access key id', required: true, maxLength: 200 },
      { name: 'secretAccessKey', type: 'password', label: 'Secret access key', maxLength: 200 },
    ],
    defaultInputModuleIds: ['as-is'],
    minInputModules: 1,
    maxInputModules: 4,
    selectableInputModuleIds: ['as-is', 'transcode', 'watermark', 'burn-subtitles'],
  }),
  module({
    id: 'webhook',
    name: 'Webhook',
    description: 'Tell another system that the media was published',
    type: 'destination',
    selectable: true,
    version: '1.0',
    schema: [
      { name: 'url', type: 'url', label: 'Address', required: true, maxLength: 500 },
      // The receiver checks the HMAC-SHA256 signature of each call with it (x-media-cloud-signature).
      { name: 'secret', type: 'password', label: 'Signing secret', maxLength: 200 },
    ],
    defaultInputModuleIds: ['as-is'],
    minInputModules: 1,
    maxInputModules: 1,
    selectableInputModuleIds: ['as-is', 'transcode'],
  }),
  module({
    id: 'email-notify',
    name: 'Email notification',
    description: 'Mail someone when publishing has finished',
    type: 'post',
    selectable: true,
    version: '1.0',
    schema: [{ name: 'to', type: 'emailAddress', label: 'Send to', required: true, maxLength: 200 }],
    defaultInputModuleIds: [],
    minInputModules: 1,
    maxInputModules: 1,
    selectableInputModuleIds: ['folder-export', 'youtube', 'ftp', 'sftp', 's3', 'webhook'],
  }),
];

export const publishModule = (id: string) => PUBLISH_MODULES.find((candidate) => candidate.id === id);

/** The versions an edge server has installed: the modules that can run next to the media. */
export const EDGE_INSTALLED_MODULES: Readonly<Record<string, string>> = {
  'source-media': '1.0',
  'as-is': '1.0',
  transcode: '2.0',
  'folder-export': '1.0',
  'email-notify': '1.0',
};

/** The cloud runs every module at its current version. */
export const CLOUD_INSTALLED_MODULES: Readonly<Record<string, string>> = Object.fromEntries(
  PUBLISH_MODULES.map((candidate) => [candidate.id, candidate.version]),
);
