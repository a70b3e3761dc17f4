import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { startStack } from './stack';

/**
 * `npm start`: the whole product on one port, data kept under DATA_DIR (default .data/).
 * RUNNERS=N starts N session runner processes sharing the WhatsApp sessions (default 1).
 */
const port = Number(process.env.PORT || 8080);
const dataDir = resolve(process.env.DATA_DIR || '.data');
const adminEmail = process.env.ADMIN_EMAIL || 'admin@admin.com';
const adminPassword = process.env.ADMIN_PASSWORD || 'admin123';
const host = process.env.HOST || '127.0.0.1';
const runners = Number(process.env.RUNNERS || 1);
if (!Number.isInteger(runners) || runners < 1) {
  console.error(`RUNNERS must be a whole number of at least 1, not ${process.env.RUNNERS}`);
  process.exit(1);
}

// The local-only endpoints (/@simulator, /@timers, /@mail, the SQS API, s3rver) have no auth:
// anyone who reaches the port can inject messages or read reset codes.
const loopback = host === 'localhost' || (isIP(host) === 4 ? host.startsWith('127.') : host === '::1');
if (!loopback && process.env.ALLOW_REMOTE !== '1') {
  console.error(
    `Refusing HOST=${host}: the local runtime has unauthenticated test endpoints. Set ALLOW_REMOTE=1 to expose it anyway.`,
  );
  process.exit(1);
}

const stack = await startStack({
  port,
  dataDir,
  adminEmail,
  adminPassword,
  host,
  runners,
  logLevel: process.env.LOG_LEVEL || 'info',
});

console.log(`
  Inbox is running at ${stack.url.replace('127.0.0.1', 'localhost')}
  Log in as ${adminEmail} with the password ${process.env.ADMIN_PASSWORD ? 'from ADMIN_PASSWORD' : adminPassword}
  Data is kept under ${dataDir}; ${runners} session runner${runners === 1 ? '' : 's'}. Press Ctrl-C to stop.
`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
