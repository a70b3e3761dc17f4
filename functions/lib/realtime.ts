import {
  ApiGatewayManagementApiClient,
  GoneException,
  PostToConnectionCommand,
  DeleteConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { Audience, EventName, RealtimeMessage, EventAction } from '#shared/events';
import { channelEvent } from '#shared/events';
import { can } from '#shared/permissions';
import { canSeeTicket } from '#shared/visibility';
import { config } from './config';
import { localClientOptions } from './local-aws';
import { batchGet, deleteItem, getItem, query, queryAll, updateItem, batchWrite, type Item } from './db';
import { ttlIn } from './keys';
import { log } from './log';
import { eachLimit } from './each-limit';

/**
 * WebSocket connections: `C#<companyId>#WS` / `CONN#<connectionId>` holds who is connected and which
 * rooms they joined (so publish is one Query per company), and `WS#<connectionId>` / `WS` maps a
 * connection id back to its company for `$disconnect` and `$default`. Both carry a TTL. Each names
 * the login session it was opened in, which also lists it (accounts/sessions.ts): ending a session
 * closes exactly its sockets.
 */
export interface WsConnection {
  connectionId: string;
  companyId: number;
  userId: number;
  /** the user's name, shown to the other viewers of a ticket (absent on connections saved before issue 24) */
  name?: string;
  /** the login session (`sid` of the ws ticket) */
  sessionId: string;
  profile: string;
  super: boolean;
  queueIds: number[];
  allTicket: string;
  showNoQueue: boolean;
  /** ticket ids of open chat boxes */
  chatBoxes: number[];
  /** ticket statuses whose lists are shown */
  ticketRooms: string[];
  notification: boolean;
  connectedAt: string;
}

const CONNECTION_TTL_SECONDS = 3 * 60 * 60;
const companyConnKey = (companyId: number, connectionId: string) => ({
  pk: `C#${companyId}#WS`,
  sk: `CONN#${connectionId}`,
});
const reverseKey = (connectionId: string) => ({ pk: `WS#${connectionId}`, sk: 'WS' });

/**
 * Every open socket is also listed platform-wide: its reverse record carries gsi3 keys under one of
 * SOCKET_SHARDS partitions (`SOCKETS#<n>`), so a message to every user of every company
 * (announcements) reads the open sockets, never the list of companies.
 */
const SOCKET_SHARDS = 4;
function socketIndexKeys(connectionId: string) {
  let hash = 0;
  for (const ch of connectionId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return { gsi3pk: `SOCKETS#${hash % SOCKET_SHARDS}`, gsi3sk: connectionId };
}

/**
 * A connection with its expiry, `<connectionId>@<expires epoch s>`: the entry its user's socket set
 * holds (accounts/users.ts), moved to the new expiry whenever the connection's is. The reverse
 * record keeps it as `presence`, so a closing socket names the entry it added.
 */
const socketEntry = (connectionId: string, expiresAt: number) => `${connectionId}@${expiresAt}`;

/**
 * What happened to a connection, for whoever keeps state beside the connection records (presence:
 * the user's socket set, their status, a ticket's viewers). `opened`: saved by `$connect`; `moved`:
 * its expiry refreshed, `entry` replacing `previous`; `closed`: its records deleted (`user` when the
 * reverse record named them, `chatBoxes`: the tickets it had open, in `companyId`).
 */
export type ConnectionChange =
  | { kind: 'opened'; companyId: number; userId: number; connectionId: string; entry: string }
  | { kind: 'moved'; companyId: number; userId: number; connectionId: string; entry: string; previous?: string }
  | {
      kind: 'closed';
      connectionId: string;
      user?: { companyId: number; userId: number; entry: string };
      companyId?: number;
      chatBoxes: number[];
    };
export type ConnectionHandler = (change: ConnectionChange) => Promise<void>;

const handlers: ConnectionHandler[] = [];

/**
 * Registers a handler for every connection change (presence/service.ts registers itself when it
 * loads; every entry point that opens, refreshes or closes connections, or publishes, loads it).
 * Realtime is the transport: it knows connections, never what the domain makes of them.
 */
export function onConnectionChange(handler: ConnectionHandler) {
  handlers.push(handler);
}

/** Handlers run one after the other; one that fails is logged and never breaks the socket itself. */
async function emit(change: ConnectionChange) {
  for (const handler of handlers)
    await handler(change).catch((err) =>
      log.warn('connection change not handled', {
        kind: change.kind,
        connectionId: change.connectionId,
        error: (err as Error).message,
      }),
    );
}

export async function saveConnection(conn: WsConnection) {
  const ttl = ttlIn(CONNECTION_TTL_SECONDS);
  const presence = socketEntry(conn.connectionId, ttl);
  await batchWrite([
    { ...companyConnKey(conn.companyId, conn.connectionId), ...conn, ttl },
    {
      ...reverseKey(conn.connectionId),
      ...socketIndexKeys(conn.connectionId),
      companyId: conn.companyId,
      userId: conn.userId,
      sessionId: conn.sessionId,
      connectedAt: conn.connectedAt,
      presence,
      ttl,
    },
  ]);
  await emit({
    kind: 'opened',
    companyId: conn.companyId,
    userId: conn.userId,
    connectionId: conn.connectionId,
    entry: presence,
  });
}

export async function findConnection(connectionId: string): Promise<WsConnection | undefined> {
  const reverse = await getItem<{ companyId: number }>(reverseKey(connectionId));
  if (!reverse) return undefined;
  return getItem<WsConnection>(companyConnKey(reverse.companyId, connectionId));
}

interface ReverseRecord {
  companyId: number;
  userId?: number;
  sessionId?: string;
  presence?: string;
}

/** Deletes a connection's records; answers what the reverse record said (its user and session), if any. */
/** Which of these connections are still open (their records exist; a closed one's are deleted, a dead one's expire). */
export async function openConnections(connectionIds: string[]): Promise<Set<string>> {
  if (!connectionIds.length) return new Set();
  const found = await batchGet<{ pk: string }>(connectionIds.map(reverseKey), { projection: ['pk'] });
  return new Set(found.map((item) => item.pk.slice('WS#'.length)));
}

export async function removeConnection(connectionId: string, companyId?: number) {
  // consistent: a connection saved a moment ago by `$connect` is removed with its presence entry
  const reverse = await getItem<ReverseRecord>(reverseKey(connectionId), { consistent: true });
  const owner = companyId ?? reverse?.companyId;
  await deleteItem(reverseKey(connectionId));
  const gone =
    owner !== undefined
      ? await deleteItem<WsConnection>(companyConnKey(owner, connectionId), { returnOld: true })
      : undefined;
  await emit({
    kind: 'closed',
    connectionId,
    user:
      reverse?.presence && reverse.userId !== undefined
        ? { companyId: reverse.companyId, userId: reverse.userId, entry: reverse.presence }
        : undefined,
    companyId: owner,
    chatBoxes: gone?.chatBoxes ?? [],
  });
  return reverse;
}

/**
 * Closes sockets at once: their records go first, so no publish finds them any more, then the
 * gateway drops them (a post already under way then meets a 410). Closing a socket already gone
 * costs nothing.
 */
export async function closeConnections(companyId: number, connectionIds: string[]) {
  await eachLimit(connectionIds, FANOUT_CONCURRENCY, async (connectionId) => {
    await removeConnection(connectionId, companyId);
    await disconnect(connectionId);
  });
}

/** Closes the company's sockets that match (a user's, or those a company expiry bars). */
export async function closeConnectionsWhere(companyId: number, match: (conn: WsConnection) => boolean) {
  const doomed = (await companyConnections(companyId)).filter(match);
  await closeConnections(
    companyId,
    doomed.map(({ connectionId }) => connectionId),
  );
}

/**
 * Room fields of a connection still recorded (a removed one is not brought back as a partial item).
 * Chat boxes are changed with changeChatBoxes.
 */
export async function updateRooms(
  conn: WsConnection,
  fields: Partial<Pick<WsConnection, 'ticketRooms' | 'notification'>>,
) {
  await updateItem(companyConnKey(conn.companyId, conn.connectionId), {
    set: { ...fields, ttl: ttlIn(CONNECTION_TTL_SECONDS) },
    condition: 'attribute_exists(pk)',
  });
}

/**
 * Changes a connection's open chat boxes as one step: `change` gets the list as stored and answers
 * the new one (or throws to refuse), and the write holds only while the list is still that one; when
 * another message of the socket changed it first (a leave and a join sent back to back run at once),
 * the connection is read again and `change` runs on the fresh list. The connection as written, or
 * undefined when it is not recorded (any more).
 */
export async function changeChatBoxes(
  conn: WsConnection,
  change: (open: number[]) => number[],
): Promise<WsConnection | undefined> {
  let current: WsConnection | undefined = conn;
  for (let attempt = 0; current && attempt < 10; attempt++) {
    const before = current.chatBoxes ?? [];
    const chatBoxes = change(before);
    const written = await updateItem(companyConnKey(conn.companyId, conn.connectionId), {
      set: { chatBoxes, ttl: ttlIn(CONNECTION_TTL_SECONDS) },
      condition: 'attribute_exists(pk) AND chatBoxes = :before',
      conditionValues: { ':before': before },
    });
    if (written) return { ...current, chatBoxes };
    current = await getItem<WsConnection>(companyConnKey(conn.companyId, conn.connectionId), { consistent: true });
  }
  if (current) throw new Error('chat boxes changed by too many messages at once');
  return undefined;
}

/**
 * `userStatus`: the viewer fields (role, queues) and the expiry of a connection still recorded, and
 * its presence entry moved to the new expiry. Only the named fields are written, so a room join
 * handled at the same moment is kept, and a connection that `$disconnect` or a 410 removed stays
 * removed. False when the connection is not recorded.
 */
export async function refreshConnection(
  conn: Pick<WsConnection, 'connectionId' | 'companyId' | 'userId'>,
  fields: Partial<Pick<WsConnection, 'name' | 'profile' | 'queueIds' | 'allTicket' | 'showNoQueue'>>,
): Promise<boolean> {
  const ttl = ttlIn(CONNECTION_TTL_SECONDS);
  const kept = await updateItem(companyConnKey(conn.companyId, conn.connectionId), {
    set: { ...fields, ttl },
    condition: 'attribute_exists(pk)',
  });
  if (!kept) return false;
  const before = await getItem<{ presence?: string }>(reverseKey(conn.connectionId));
  const presence = socketEntry(conn.connectionId, ttl);
  const moved = await updateItem(reverseKey(conn.connectionId), {
    set: { presence, ttl },
    condition: 'attribute_exists(pk)',
  });
  if (!moved) return false;
  await emit({
    kind: 'moved',
    companyId: conn.companyId,
    userId: conn.userId,
    connectionId: conn.connectionId,
    entry: presence,
    previous: before?.presence,
  });
  return true;
}

export async function companyConnections(companyId: number): Promise<WsConnection[]> {
  const out: WsConnection[] = [];
  let startKey: Item | undefined;
  do {
    const page = await query<WsConnection>({ pk: `C#${companyId}#WS`, sk: { beginsWith: 'CONN#' }, startKey });
    out.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return out;
}

/** Whether a connection may see a ticket-scoped event (queue membership, role, room joins). */
export function mayReceive(conn: WsConnection, audience: Audience): boolean {
  switch (audience.kind) {
    case 'company':
      return true;
    case 'admins':
      return conn.profile === 'admin';
    case 'permission':
      return can(conn.profile, audience.permission) !== Boolean(audience.without);
    case 'superUsers':
      return conn.super === true;
    case 'user':
      return conn.userId === audience.userId && conn.connectionId !== audience.exceptConnectionId;
    case 'users':
      return audience.userIds.includes(conn.userId);
    case 'ticket':
      return canSeeTicket(conn, audience);
  }
}

let mgmt: ApiGatewayManagementApiClient | undefined;
function managementClient() {
  const { wsEndpoint, region } = config();
  if (!wsEndpoint) return undefined;
  mgmt ??= new ApiGatewayManagementApiClient({
    endpoint: wsEndpoint,
    region,
    ...localClientOptions(wsEndpoint.startsWith('http://') ? wsEndpoint : undefined),
  });
  return mgmt;
}

export function resetRealtime() {
  mgmt = undefined;
}

/**
 * How long a connection may be saved yet not postable: `$connect` saves it before it returns, and
 * API Gateway (like the local gateway) answers 410 to posts until then. It waits up to 29 s for the
 * integration.
 */
export const CONNECT_GRACE_MS = 30_000;

/**
 * Posts raw data to one connection; false when it cannot take it. A 410 means the socket is gone,
 * and its records are deleted, unless the connection is younger than CONNECT_GRACE_MS: that may be
 * a `$connect` still running, whose socket opens a moment later and must still be found then.
 */
export async function postToConnection(
  conn: Pick<WsConnection, 'connectionId' | 'companyId' | 'connectedAt'>,
  data: unknown,
): Promise<boolean> {
  const client = managementClient();
  if (!client) return false;
  try {
    await client.send(
      new PostToConnectionCommand({ ConnectionId: conn.connectionId, Data: Buffer.from(JSON.stringify(data)) }),
    );
    return true;
  } catch (err) {
    if (
      !(err instanceof GoneException) &&
      (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode !== 410
    ) {
      log.warn('post to connection failed', { connectionId: conn.connectionId, error: (err as Error)?.message });
      return false;
    }
    const ageMs = Date.now() - Date.parse(conn.connectedAt);
    if (ageMs < CONNECT_GRACE_MS) {
      log.info('connection not open yet', { connectionId: conn.connectionId, companyId: conn.companyId, ageMs });
      return false;
    }
    log.info('connection gone', { connectionId: conn.connectionId, companyId: conn.companyId });
    // one stale connection never fails the fan-out to the others
    await removeConnection(conn.connectionId, conn.companyId).catch((removeErr) =>
      log.warn('gone connection not removed', {
        connectionId: conn.connectionId,
        error: (removeErr as Error)?.message,
      }),
    );
    return false;
  }
}

export async function disconnect(connectionId: string) {
  const client = managementClient();
  await client?.send(new DeleteConnectionCommand({ ConnectionId: connectionId })).catch(() => undefined);
}

const FANOUT_CONCURRENCY = 16;

/**
 * Publishes an event to the company's connections that may see it. Fan-out runs with bounded
 * concurrency; gone connections are deleted on the way.
 */
export async function publish<T extends object>(
  companyId: number,
  name: EventName,
  data: T & { action: EventAction },
  audience: Audience = { kind: 'company' },
) {
  const connections = (await companyConnections(companyId)).filter((c) => mayReceive(c, audience));
  const message: RealtimeMessage<T> = { event: channelEvent(companyId, name), data };
  await postAll(connections.map((conn) => ({ conn, message })));
  return connections.length;
}

/**
 * Publishes to every open socket of every company (announcements), each under its company's event
 * name: one Query per shard of the platform-wide socket list, whatever the number of companies.
 */
export async function publishToEveryone<T extends object>(name: EventName, data: T & { action: EventAction }) {
  const now = Date.now() / 1000;
  const shards = await Promise.all(
    Array.from({ length: SOCKET_SHARDS }, (_, n) =>
      queryAll<{ pk: string; companyId: number; connectedAt: string; ttl: number }>({
        index: 'gsi3',
        pk: `SOCKETS#${n}`,
        projection: ['pk', 'companyId', 'connectedAt', 'ttl'],
      }),
    ),
  );
  // a socket past its expiry that DynamoDB has not deleted yet is closed already
  const open = shards.flat().filter((r) => r.ttl > now);
  await postAll(
    open.map((r) => ({
      conn: { connectionId: r.pk.slice('WS#'.length), companyId: r.companyId, connectedAt: r.connectedAt },
      message: { event: channelEvent(r.companyId, name), data } satisfies RealtimeMessage<T>,
    })),
  );
  return open.length;
}

/** Posts each message to its connection, FANOUT_CONCURRENCY at a time. */
export async function postAll(
  posts: { conn: Pick<WsConnection, 'connectionId' | 'companyId' | 'connectedAt'>; message: unknown }[],
) {
  await eachLimit(posts, FANOUT_CONCURRENCY, ({ conn, message }) => postToConnection(conn, message));
}
