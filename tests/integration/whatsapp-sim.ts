import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { api, baseUrl, queuesIdle, sleep } from './helpers';
import { BOT_DUE_SHARDS, botDuePk } from '../../functions/lib/chatbot/timers';

/** The simulator's local-only endpoints (a fake phone per connection), through the gateway. */
export async function sim<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/@simulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`simulator ${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed as T;
}

export const phone = (companyId: number, whatsappId: number) => {
  const base = `/sessions/${companyId}/${whatsappId}`;
  return {
    state: () => sim('GET', base),
    scan: (number = '5511900000000') => sim('POST', `${base}/scan`, { number }),
    /** a customer writes to the company */
    send: (message: { from: string; body?: string; [k: string]: unknown }) =>
      sim<{ wid: string; chatJid: string }>('POST', `${base}/messages`, message),
    /** a customer's message reaches the session but cannot be decrypted; `send` with its wid is the resend */
    undecryptable: (message: { from: string; wid?: string; pushName?: string; lid?: string; [k: string]: unknown }) =>
      sim<{ wid: string; chatJid: string }>('POST', `${base}/undecryptable`, message),
    ack: (wid: string, ack?: number) => sim<{ ack: number }>('POST', `${base}/ack`, { wid, ack }),
    /** WhatsApp refuses a message it had taken (status ERROR) with its code: 463, 479 ... */
    refuse: (wid: string, code: number, title?: string) =>
      sim<{ ack: number }>('POST', `${base}/ack`, { wid, refusedCode: code, refusedTitle: title }),
    /** WhatsApp's warnings before a ban: the reach-out lock and the new-chat quota */
    restrict: (restriction: {
      reachoutLock?: { active: boolean; until?: string; type?: string };
      newChatQuota?: { total: number; used: number; endsAt?: string };
    }) => sim('POST', `${base}/restriction`, restriction),
    /** the contact of `chatJid` reacts to the message `wid` (`emoji` empty: takes the reaction back) */
    react: (reaction: { wid: string; chatJid: string; emoji: string; fromMe?: boolean; participantJid?: string }) =>
      sim<{ reactionId: string }>('POST', `${base}/reaction`, reaction),
    /** our reactions the phone received */
    reactions: async () =>
      (await sim<{ reactions: { wid: string; to: string; emoji: string }[] }>('GET', base)).reactions,
    call: (from: string, fromAlt?: string) => sim('POST', `${base}/call`, { from, fromAlt }),
    /** WhatsApp says a `@lid` id and a number are one account (the runner's `lidMapping` event) */
    lidMapping: (lid: string, pn: string) => sim('POST', `${base}/lid-mapping`, { lid, pn }),
    drop: (code: number) => sim('POST', `${base}/drop`, { code }),
    outbound: async () => (await sim<{ outbound: any[] }>('GET', base)).outbound,
    /** what the phone's address book holds (POST /contacts/import reads it) */
    setAddressBook: (contacts: { number: string; name: string }[]) => sim('POST', `${base}/address-book`, { contacts }),
  };
};

/** Waits until `check` returns a truthy value (queues drained between tries). */
export async function eventually<T>(check: () => Promise<T | undefined | false | null>, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await queuesIdle();
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(50);
  }
}

/**
 * A customer writes to a paired connection through its simulated phone, and the company's admin
 * accepts the ticket that opens: the message as the phone sent it and the open ticket.
 */
export async function acceptedConversation(
  co: { adminToken: string; companyId: number; admin: { id: number } },
  whatsappId: number,
  customer: string,
  body = 'oi, tudo bem?',
) {
  const first = await phone(co.companyId, whatsappId).send({ from: customer, body });
  const ticket = await eventually(async () => {
    const list = (await api('GET', '/tickets?showAll=true&status=pending', { token: co.adminToken })).body.tickets;
    return list?.[0] as { id: number } | undefined;
  });
  const accepted = await api('PUT', `/tickets/${ticket.id}`, {
    token: co.adminToken,
    body: { status: 'open', userId: co.admin.id },
  });
  if (accepted.status !== 200) throw new Error(`accept ticket: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { first, ticket };
}

/** Creates a connection and pairs its simulated phone: the connection ends CONNECTED. */
export async function connectedWhatsapp(token: string, companyId: number, body: Record<string, unknown> = {}) {
  const created = await api('POST', '/whatsapp', { token, body: { name: 'Main line', ...body } });
  if (created.status !== 201) throw new Error(`create connection: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as number;
  await phone(companyId, id).scan(`55119${String(companyId).padStart(4, '0')}${String(id).padStart(4, '0')}`);
  await eventually(async () => (await api('GET', `/whatsapp/${id}`, { token })).body.status === 'CONNECTED');
  return created.body as { id: number; token: string };
}

let doc: DynamoDBDocumentClient | undefined;
/** Reads and rewrites raw items (test set-up only: making a timer due now). */
export function rawTable() {
  doc ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const TableName = inject('tableName');
  return {
    query: async (pk: string) =>
      (
        await doc!.send(
          new QueryCommand({ TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
        )
      ).Items ?? [],
    put: async (item: Record<string, unknown>) => void (await doc!.send(new PutCommand({ TableName, Item: item }))),
    del: async (pk: string, sk: string) => void (await doc!.send(new DeleteCommand({ TableName, Key: { pk, sk } }))),
  };
}

/** Makes the chatbot wake-ups of a company due now (instead of waiting minutes). */
export async function makeDueNow(companyId: number, kind: string) {
  const t = rawTable();
  for (let shard = 0; shard < BOT_DUE_SHARDS; shard++) {
    for (const item of await t.query(botDuePk(shard))) {
      if (item.companyId !== companyId || item.kind !== kind) continue;
      await t.del(item.pk, item.sk);
      const dueAt = '2000-01-01T00:00:00.000Z';
      await t.put({ ...item, dueAt, sk: `${dueAt}#${item.kind}#${item.companyId}#${item.ticketId}` });
    }
  }
}
