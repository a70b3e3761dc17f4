import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID, createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, normalize, relative, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { SOCKET_MAX_FRAME_BYTES } from '../../shared/constants';
import { API_PREFIX, splitRouteKey, type RouteKey } from '../manifest';

/** SQS's largest message body (256 KiB). */
const SQS_MAX_MESSAGE_BYTES = 262_144;

/**
 * The file under `root` a request path names, or undefined (the SPA's index.html is served then).
 * Compared by relative path, not by prefix: `/..%2fdist-evil/x` decodes to a sibling of `dist`
 * whose absolute path still starts with `.../dist`.
 */
export function staticFile(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const candidate = normalize(join(root, decoded));
  const inside = relative(root, candidate);
  if (!inside || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return existsSync(candidate) && statSync(candidate).isFile() ? candidate : undefined;
}

export type HttpHandler = (
  event: APIGatewayProxyEventV2,
  context?: unknown,
) => Promise<APIGatewayProxyStructuredResultV2>;
export type WsHandler = (event: unknown, context?: unknown) => Promise<unknown>;

/** The fields of the SQS JSON protocol the local queues answer (receive, delete, change visibility). */
export interface SqsActionInput {
  QueueUrl?: string;
  MaxNumberOfMessages?: number;
  WaitTimeSeconds?: number;
  VisibilityTimeout?: number;
  ReceiptHandle?: string;
  MessageBody?: string;
  MessageGroupId?: string;
  MessageDeduplicationId?: string;
  DelaySeconds?: number;
  /** StartMessageMoveTask: the dead-letter queue to redrive */
  SourceArn?: string;
  AttributeNames?: string[];
}

export interface GatewayRoute {
  routeKey: RouteKey;
  handler: HttpHandler;
}

/** Extra local-only endpoints (`/@timers/...`, `/@simulator/...`): never part of the AWS stack. */
export type LocalEndpoint = (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<void>;

export interface GatewayOptions {
  port: number;
  host?: string;
  routes: GatewayRoute[];
  ws: { connect: WsHandler; disconnect: WsHandler; default: WsHandler };
  /** `AmazonSQS.SendMessage` requests from the SDK land here */
  onSqsSend: (input: {
    QueueUrl: string;
    MessageBody: string;
    MessageGroupId?: string;
    MessageDeduplicationId?: string;
    DelaySeconds?: number;
  }) => string;
  /**
   * Other SQS actions (`ReceiveMessage`, `DeleteMessage`, `ChangeMessageVisibility`) for queues an
   * external process polls (the session runner); answers the action's JSON output.
   */
  onSqsAction?: (action: string, input: SqsActionInput) => Promise<unknown>;
  webDir?: string;
  /** served as /config.json: the SPA's runtime settings */
  webConfig: Record<string, unknown>;
  localEndpoints?: Record<string, LocalEndpoint>;
  /**
   * Tests only: take the client address from `x-forwarded-for`, so a test can act from an address of
   * its choice. Off by default; API Gateway on AWS sets `sourceIp` itself.
   */
  trustForwardedFor?: boolean;
  /** open sockets (and upgrades under way) past which an upgrade gets 503; MAX_CONNECTIONS unless set */
  maxConnections?: number;
}

const MAX_BODY_BYTES = 6 * 1024 * 1024;
/**
 * Sockets the local gateway holds at once (API Gateway's own quota is per account): a bound on its
 * memory, well above the few hundred a full test run leaves open.
 */
export const MAX_CONNECTIONS = 2000;
const TEXT_TYPES = /json|text\/|x-www-form-urlencoded|xml/;
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

interface CompiledRoute extends GatewayRoute {
  method: string;
  regex: RegExp;
  names: string[];
  params: number;
}

function compile(route: GatewayRoute): CompiledRoute {
  const { method, path } = splitRouteKey(route.routeKey);
  const names: string[] = [];
  const pattern = path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{([^}]+?)(\\\+)?\}/g, (_m, name: string, greedy) => {
      names.push(name.replace(/\\/g, ''));
      return greedy ? '(.+)' : '([^/]+)';
    });
  return { ...route, method, regex: new RegExp(`^${pattern}$`), names, params: names.length };
}

/**
 * Reads the body up to `limit` bytes. A body that declares or reaches more is not kept: the
 * answer is `tooLarge`, and the caller answers 413 and drops the rest (`discardRest`).
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  if (Number(req.headers['content-length']) > limit) return Promise.resolve({ body: Buffer.alloc(0), tooLarge: true });
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= limit) return void chunks.push(c);
      req.off('data', onData);
      req.pause();
      done({ body: Buffer.alloc(0), tooLarge: true });
    };
    req.on('data', onData);
    req.on('end', () => done({ body: Buffer.concat(chunks), tooLarge: false }));
    req.on('error', fail);
  });
}

/** The most of a refused body read (and dropped) so that its client sees the 413; past it the connection goes. */
const DISCARD_MAX_BYTES = 16 * 1024 * 1024;

function discardRest(req: IncomingMessage) {
  let seen = 0;
  req.on('data', (c: Buffer) => {
    seen += c.length;
    if (seen > DISCARD_MAX_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** The most a request to this path may carry: a post to a socket is one frame (API Gateway's 128 KB). */
const bodyLimit = (pathname: string) =>
  pathname.startsWith('/@connections/') ? SOCKET_MAX_FRAME_BYTES : MAX_BODY_BYTES;

function lowerHeaders(req: IncomingMessage) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * The local gateway: one port serving `/api/*` (API-Gateway-v2 events into the same handlers),
 * `/ws` (the same `$connect`/`$disconnect`/`$default` handlers), `POST /@connections/{id}` (the
 * management API), an SQS-compatible endpoint for the SDK, and the built web app.
 */
export function startGateway(opts: GatewayOptions) {
  const routes = opts.routes.map(compile).sort((a, b) => a.params - b.params);
  const sockets = new Map<string, WebSocket>();
  const host = opts.host ?? '127.0.0.1';
  const domainName = `${host}:${opts.port}`;

  const wsEvent = (connectionId: string, routeKey: string, eventType: string, extra: Record<string, unknown> = {}) => ({
    requestContext: {
      connectionId,
      routeKey,
      eventType,
      domainName,
      stage: 'local',
      requestId: randomUUID(),
      apiId: 'local',
      connectedAt: Date.now(),
      requestTimeEpoch: Date.now(),
      messageDirection: 'IN',
    },
    isBase64Encoded: false,
    ...extra,
  });

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) {
    const path = url.pathname.slice(API_PREFIX.length).replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    let match: { route: CompiledRoute; values: string[] } | undefined;
    for (const route of routes) {
      if (route.method !== method) continue;
      const m = route.regex.exec(path);
      if (m) {
        match = { route, values: m.slice(1) };
        break;
      }
    }
    if (!match) return sendJson(res, 404, { error: 'ERR_ROUTE_NOT_FOUND' });
    const headers = lowerHeaders(req);
    const contentType = headers['content-type'] ?? '';
    const isText = !body.length || TEXT_TYPES.test(contentType);
    let pathParameters: Record<string, string>;
    try {
      pathParameters = Object.fromEntries(match.route.names.map((n, i) => [n, decodeURIComponent(match!.values[i]!)]));
    } catch {
      // a malformed %-sequence: API Gateway refuses such a path before any function runs
      return sendJson(res, 400, { error: 'ERR_VALIDATION' });
    }
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
    const routeKey = `${method} ${API_PREFIX}${splitRouteKey(match.route.routeKey).path}`;
    const event: APIGatewayProxyEventV2 = {
      version: '2.0',
      routeKey,
      rawPath: url.pathname,
      rawQueryString: url.search.slice(1),
      cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
      headers,
      queryStringParameters: Object.keys(query).length ? query : undefined,
      pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName,
        domainPrefix: 'local',
        http: {
          method,
          path: url.pathname,
          protocol: 'HTTP/1.1',
          sourceIp:
            (opts.trustForwardedFor ? headers['x-forwarded-for']?.split(',')[0]?.trim() : undefined) ||
            (req.socket.remoteAddress ?? ''),
          userAgent: headers['user-agent'] ?? '',
        },
        requestId: randomUUID(),
        routeKey,
        stage: '$default',
        time: new Date().toISOString(),
        timeEpoch: Date.now(),
      },
      body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
      isBase64Encoded: !isText,
    };
    const out = await match.route.handler(event, {});
    const resHeaders: Record<string, string | string[]> = { ...(out.headers as Record<string, string>) };
    if (out.cookies?.length) resHeaders['set-cookie'] = out.cookies;
    res.writeHead(out.statusCode ?? 200, resHeaders);
    res.end(out.body ? (out.isBase64Encoded ? Buffer.from(out.body, 'base64') : out.body) : undefined);
  }

  function handleConnections(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) {
    const id = decodeURIComponent(url.pathname.slice('/@connections/'.length));
    const socket = sockets.get(id);
    if (!socket || socket.readyState !== socket.OPEN) {
      res.writeHead(410, { 'content-type': 'application/json', 'x-amzn-errortype': 'GoneException' });
      return res.end(JSON.stringify({ message: 'Gone' }));
    }
    if (req.method === 'POST') socket.send(body.toString('utf8'));
    else if (req.method === 'DELETE') socket.close(1000);
    else
      return sendJson(res, 200, {
        connectedAt: new Date().toISOString(),
        identity: {},
        lastActiveAt: new Date().toISOString(),
      });
    res.writeHead(200);
    res.end();
  }

  async function handleSqs(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const target = String(req.headers['x-amz-target'] ?? '');
    if (target !== 'AmazonSQS.SendMessage' && opts.onSqsAction && target.startsWith('AmazonSQS.')) {
      try {
        const out = await opts.onSqsAction(
          target.slice('AmazonSQS.'.length),
          JSON.parse(body.toString('utf8') || '{}'),
        );
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        return res.end(JSON.stringify(out ?? {}));
      } catch (err) {
        return sendJson(res, 400, {
          __type: 'AWS.SimpleQueueService.InvalidParameterValue',
          message: (err as Error).message,
        });
      }
    }
    if (target !== 'AmazonSQS.SendMessage')
      return sendJson(res, 400, { __type: 'UnsupportedOperation', message: target });
    const input = JSON.parse(body.toString('utf8'));
    // SQS refuses a message over 256 KiB (a client fault: the sender must not retry it as it is)
    if (Buffer.byteLength(String(input.MessageBody ?? ''), 'utf8') > SQS_MAX_MESSAGE_BYTES)
      return sendJson(res, 400, {
        __type: 'AWS.SimpleQueueService.InvalidParameterValue',
        message: `One or more parameters are invalid. Reason: Message must be shorter than ${SQS_MAX_MESSAGE_BYTES} bytes.`,
      });
    const MessageId = opts.onSqsSend(input);
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
    res.end(JSON.stringify({ MessageId, MD5OfMessageBody: createHash('md5').update(input.MessageBody).digest('hex') }));
  }

  function serveStatic(res: ServerResponse, url: URL) {
    if (url.pathname === '/config.json') return sendJson(res, 200, opts.webConfig);
    const root = opts.webDir && existsSync(opts.webDir) ? resolve(opts.webDir) : undefined;
    if (!root) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('The web app is not built: run npm run build:web');
    }
    const file = staticFile(root, url.pathname) ?? join(root, 'index.html');
    const immutable = file.includes(`${root}/assets/`);
    res.writeHead(200, {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    createReadStream(file).pipe(res);
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${domainName}`);
    try {
      const { body, tooLarge } =
        req.method === 'GET' || req.method === 'HEAD'
          ? { body: Buffer.alloc(0), tooLarge: false }
          : await readBody(req, bodyLimit(url.pathname));
      if (tooLarge) {
        // answered at once; the rest is read and dropped, never kept, so a client still sending
        // (fetch writes the whole body before it reads) gets the 413 instead of a reset, up to
        // DISCARD_MAX_BYTES, past which the connection goes. Not `connection: close`: the server
        // then destroys the socket once the answer is out, and a client still writing meets EPIPE
        discardRest(req);
        return sendJson(res, 413, { error: 'ERR_PAYLOAD_TOO_LARGE' });
      }
      if (url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`))
        return await handleApi(req, res, url, body);
      if (url.pathname.startsWith('/@connections/')) return handleConnections(req, res, url, body);
      if (req.headers['x-amz-target']) return await handleSqs(req, res, body);
      for (const [prefix, endpoint] of Object.entries(opts.localEndpoints ?? {})) {
        if (url.pathname.startsWith(prefix)) return await endpoint(req, res, body);
      }
      return serveStatic(res, url);
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', msg: 'gateway error', error: (err as Error).stack }));
      if (!res.headersSent) sendJson(res, 500, { error: 'ERR_INTERNAL_SERVER_ERROR' });
      else res.end();
    }
  });

  // a frame past API Gateway's 128 KB closes the socket with 1009 before more of it is buffered
  const wss = new WebSocketServer({ noServer: true, maxPayload: SOCKET_MAX_FRAME_BYTES });
  const maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  let connecting = 0;
  server.on('upgrade', async (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://${domainName}`);
    if (url.pathname !== '/ws') return socket.destroy();
    if (sockets.size + connecting >= maxConnections) {
      socket.write('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return socket.destroy();
    }
    const connectionId = `${randomUUID().replace(/-/g, '').slice(0, 16)}=`;
    const query = Object.fromEntries(url.searchParams);
    connecting++;
    const out = await opts.ws
      .connect(
        wsEvent(connectionId, '$connect', 'CONNECT', { queryStringParameters: query, headers: lowerHeaders(req) }),
      )
      .then((result) => (result as { statusCode?: number } | undefined)?.statusCode ?? 500)
      .catch(() => 500)
      .finally(() => connecting--);
    if (out !== 200) {
      socket.write(`HTTP/1.1 ${out} Unauthorized\r\nConnection: close\r\n\r\n`);
      return socket.destroy();
    }
    if (!socket.readable || !socket.writable) {
      // the client left while $connect ran: its saved connection goes the way a $disconnect takes it
      void opts.ws.disconnect(wsEvent(connectionId, '$disconnect', 'DISCONNECT')).catch(() => undefined);
      return socket.destroy();
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.set(connectionId, ws);
      // a frame too large (ws closes with 1009) or a protocol error: the close below follows
      ws.on('error', () => undefined);
      ws.on('message', (data) => {
        void opts.ws
          .default(wsEvent(connectionId, '$default', 'MESSAGE', { body: data.toString() }))
          .catch((err) =>
            console.error(JSON.stringify({ level: 'error', msg: 'ws default failed', error: String(err) })),
          );
      });
      ws.on('close', () => {
        sockets.delete(connectionId);
        void opts.ws.disconnect(wsEvent(connectionId, '$disconnect', 'DISCONNECT')).catch(() => undefined);
      });
    });
  });

  return new Promise<{ url: string; close(): Promise<void>; sockets: Map<string, WebSocket> }>((done, fail) => {
    server.once('error', fail);
    server.listen(opts.port, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : opts.port;
      done({
        url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
        sockets,
        close: () =>
          new Promise<void>((closed) => {
            for (const ws of sockets.values()) ws.terminate();
            wss.close();
            server.closeAllConnections?.();
            server.close(() => closed());
          }),
      });
    });
  });
}
