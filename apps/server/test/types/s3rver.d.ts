/** s3rver ships no types; this is the part of its API the tests use. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  // biome-ignore lint/style/noDefaultExport: the declaration of a package whose module export is its class
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      resetOnClose?: boolean;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
