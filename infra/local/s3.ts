import S3rver from 's3rver';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * s3rver on loopback with the media bucket; CORS open for the local web origin's presigned POSTs.
 * s3rver stores a POST's Content-Type but does not enforce the POST policy (size range, type):
 * `acceptStoredUpload` re-checks every uploaded object before it is used.
 */
export async function startS3(opts: { port: number; dir: string; buckets: string[] }): Promise<LocalS3> {
  const directory = resolve(opts.dir);
  mkdirSync(directory, { recursive: true });
  const cors = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port,
    silent: true,
    directory,
    configureBuckets: opts.buckets.map((name) => ({ name, configs: [cors] })),
  });
  await server.run();
  return { endpoint: `http://127.0.0.1:${opts.port}`, stop: () => server.close() };
}
