import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { S3StorageConfig } from '../../src/platform/files/storage';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

/**
 * A real S3-protocol server (s3rver, from npm) on 127.0.0.1 with one bucket, for the S3 file storage
 * driver. It knows the access key S3RVER only; it does not check Version 4 signatures themselves.
 */
export async function startS3Server(bucket = 'actiondesk-files') {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-s3-'));
  const S3rver = require('s3rver') as S3rverClass;
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const config: S3StorageConfig = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix: 'actiondesk/',
    pathStyle: true,
    timeoutMs: 5_000,
  };
  const env = {
    FILE_STORAGE: 's3',
    S3_ENDPOINT: config.endpoint,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: config.accessKeyId,
    S3_SECRET_ACCESS_KEY: config.secretAccessKey,
    S3_PREFIX: config.prefix,
  };
  return {
    config,
    env,
    /** Where the server keeps the bucket's objects, to look at them without our own client. */
    directory,
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
