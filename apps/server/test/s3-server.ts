import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** The key pair s3rver checks signatures against. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A real S3-protocol server (s3rver) on 127.0.0.1 with a free port and its own directory, holding the
 * named buckets; `env` points the product's media storage at `bucket`/`prefix` in it.
 */
export const startS3Server = async (buckets: string[]) => {
  const directory = await fs.promises.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: (bucket: string, prefix = '') => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    }),
    close: async () => {
      await server.close();
      await fs.promises.rm(directory, { recursive: true, force: true });
    },
  };
};
