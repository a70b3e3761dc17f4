import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  SOCKET_CLOSE_TOO_LARGE,
  SOCKET_MAX_CHAT_BOXES,
  SOCKET_MAX_FRAME_BYTES,
  SOCKET_RATE,
} from '../../shared/constants';
import { api, newCompany, realtimeClient, sleep, table } from './helpers';
import { attendanceCompany, createContact, createPendingTicket, createTicket } from './fixtures';

/**
 * The socket takes only what the product needs (issue 35): known rooms, chat boxes of tickets the
 * user may see now (checked again at every use), a cap on chat boxes, frames up to 128 KB, a message
 * rate per socket, and answers that carry nothing the client sent.
 */

type Client = Awaited<ReturnType<typeof realtimeClient>>;
type Event = { event: string; data: any };

const named = (companyId: number, name: string) => (e: Event) => e.event === `company-${companyId}-${name}`;

/** The connection record of a client's only socket in its company. */
async function recordOf(companyId: number, userId: number) {
  for (let i = 0; i < 50; i++) {
    const Items = await table().query(`C#${companyId}#WS`);
    const mine = Items.filter((item) => item.userId === userId);
    if (mine.length === 1) return mine[0]!;
    await sleep(20);
  }
  throw new Error('no single connection record');
}

/** Waits until the socket closes; its close code. */
const closed = (ws: WebSocket) =>
  new Promise<number>((done) => {
    if (ws.readyState === WebSocket.CLOSED) return done(-1);
    ws.once('close', (code) => done(code));
  });

/** Events of `name` a client got after index `from`. */
const since = (client: Client, from: number, match: (e: Event) => boolean) => client.events.slice(from).filter(match);

async function setting() {
  const co = await newCompany('sock');
  const team = await attendanceCompany(co);
  // pending in queue A: the admin and agent A see it, agent B does not
  const ticket = await createPendingTicket(co.adminToken, {
    contactId: (await createContact(co.adminToken)).id,
    whatsappId: team.whatsapp.id,
    queueId: team.queueA.id,
  });
  return { co, ...team, ticket };
}

describe('chat boxes: only tickets the user may see now', () => {
  it("another company's ticket, a missing ticket and a ticket outside the user's queues are refused, stored nowhere, announced to nobody", async () => {
    const { co, agentA, agentB, ticket } = await setting();
    const other = await newCompany('sock-other');
    const aWs = await realtimeClient(agentA.token);
    const bWs = await realtimeClient(agentB.token);
    const otherWs = await realtimeClient(other.adminToken);
    try {
      await aWs.join('joinChatBox', ticket.id);
      await aWs.waitFor((e) => named(co.companyId, 'ticketViewers')(e) && e.data.ticketId === ticket.id);

      // the other company has no ticket of that number: its admin (who sees all of theirs) gets none of ours
      const foreign = await otherWs.reply('joinChatBox', ticket.id);
      expect(foreign.data).toEqual({ action: 'joinChatBox', error: 'ERR_NO_TICKET_FOUND' });
      const missing = await aWs.reply('joinChatBox', ticket.id + 1000);
      expect(missing.data).toEqual({ action: 'joinChatBox', error: 'ERR_NO_TICKET_FOUND' });
      // the rule of GET /tickets/{id}: agent B is not in queue A
      expect((await api('GET', `/tickets/${ticket.id}`, { token: agentB.token })).status).toBe(403);
      const hidden = await bWs.reply('joinChatBox', String(ticket.id));
      expect(hidden.data).toEqual({ action: 'joinChatBox', error: 'ERR_NO_PERMISSION' });
      // typing without a join is dropped (no answer to typing)
      bWs.send('typing', ticket.id);
      otherWs.send('typing', ticket.id);

      expect((await recordOf(other.companyId, other.admin.id)).chatBoxes).toEqual([]);
      expect((await recordOf(co.companyId, agentB.id)).chatBoxes).toEqual([]);
      expect((await recordOf(co.companyId, agentA.id)).chatBoxes).toEqual([ticket.id]);
      // a marker: agent A's own leave and join again are announced after whatever the refused ones did
      const mark = aWs.events.length;
      await aWs.join('leaveChatBox', ticket.id);
      await aWs.join('joinChatBox', ticket.id);
      await aWs.waitFor(
        (e) => named(co.companyId, 'ticketViewers')(e) && e.data.viewers.length === 1 && aWs.events.indexOf(e) >= mark,
      );
      const viewerIds = aWs.events
        .filter(named(co.companyId, 'ticketViewers'))
        .flatMap((e) => e.data.viewers.map((v: { userId: number }) => v.userId));
      expect(new Set(viewerIds)).toEqual(new Set([agentA.id]));
      expect(aWs.events.some(named(co.companyId, 'typing'))).toBe(false);
      for (const ws of [bWs, otherWs])
        expect(ws.events.some((e) => e.event.endsWith('-ticketViewers') || e.event.endsWith('-typing'))).toBe(false);
    } finally {
      for (const ws of [aWs, bWs, otherWs]) ws.close();
    }
  });

  it('a ticket transferred out of reach, or a user taken out of its queue, drops them from its viewers and its typing', async () => {
    const { co, agentA, agentB, queueB, ticket } = await setting();
    const aWs = await realtimeClient(agentA.token);
    const bWs = await realtimeClient(agentB.token);
    const adminWs = await realtimeClient(co.adminToken);
    try {
      await aWs.join('joinChatBox', ticket.id);
      await adminWs.join('joinChatBox', ticket.id);
      adminWs.send('typing', ticket.id);
      await aWs.waitFor(named(co.companyId, 'typing'));

      // to queue B: agent A may no longer see it, agent B now may
      const aFrom = aWs.events.length;
      const adminMoved = adminWs.events.length;
      const moved = await api('PUT', `/tickets/${ticket.id}`, { token: co.adminToken, body: { queueId: queueB.id } });
      expect(moved.status).toBe(200);
      // the transfer itself tells the viewers left who views it now
      const left = await adminWs.waitFor(
        (e) => named(co.companyId, 'ticketViewers')(e) && adminWs.events.indexOf(e) >= adminMoved,
      );
      expect(left.data.viewers.map((v: { userId: number }) => v.userId)).toEqual([co.admin.id]);
      await bWs.join('joinChatBox', ticket.id);
      const seen = await adminWs.waitFor(
        (e) => named(co.companyId, 'ticketViewers')(e) && e.data.viewers.some((v: any) => v.userId === agentB.id),
      );
      expect(seen.data.viewers.map((v: { userId: number }) => v.userId).sort()).toEqual(
        [co.admin.id, agentB.id].sort(),
      );

      // agent A's typing reaches nobody, and drops the join; the admin's reaches agent B only
      aWs.send('typing', ticket.id);
      await sleep(300);
      const adminFrom = adminWs.events.length;
      adminWs.send('typing', ticket.id);
      await bWs.waitFor(named(co.companyId, 'typing'));
      bWs.send('typing', ticket.id);
      await adminWs.waitFor((e) => named(co.companyId, 'typing')(e) && adminWs.events.indexOf(e) >= adminFrom);
      expect(adminWs.events.filter(named(co.companyId, 'typing')).map((e) => e.data.userId)).toEqual([agentB.id]);
      expect(since(aWs, aFrom, (e) => e.event.endsWith('-typing') || e.event.endsWith('-ticketViewers'))).toEqual([]);
      expect((await recordOf(co.companyId, agentA.id)).chatBoxes).toEqual([]);

      // agent B taken out of queue B: the next announcement leaves them out and tells them nothing
      const edited = await api('PUT', `/users/${agentB.id}`, { token: co.adminToken, body: { queueIds: [] } });
      expect(edited.status).toBe(200);
      const bFrom = bWs.events.length;
      await adminWs.join('leaveChatBox', ticket.id);
      await adminWs.join('joinChatBox', ticket.id);
      const after = await adminWs.waitFor(
        (e) => named(co.companyId, 'ticketViewers')(e) && e.data.viewers.length === 1,
      );
      expect(after.data.viewers.map((v: { userId: number }) => v.userId)).toEqual([co.admin.id]);
      adminWs.send('typing', ticket.id);
      await sleep(300);
      expect(since(bWs, bFrom, (e) => e.event.endsWith('-typing') || e.event.endsWith('-ticketViewers'))).toEqual([]);
    } finally {
      for (const ws of [aWs, bWs, adminWs]) ws.close();
    }
  });

  it(`a socket holds at most ${SOCKET_MAX_CHAT_BOXES} chat boxes: one more is refused until one is left`, async () => {
    const co = await newCompany('sock-cap');
    const { whatsapp } = await attendanceCompany(co);
    const tickets: { id: number }[] = [];
    for (let i = 0; i <= SOCKET_MAX_CHAT_BOXES; i++)
      tickets.push(
        await createTicket(co.adminToken, {
          contactId: (await createContact(co.adminToken)).id,
          whatsappId: whatsapp.id,
        }),
      );
    const ws = await realtimeClient(co.adminToken);
    try {
      for (const t of tickets.slice(0, SOCKET_MAX_CHAT_BOXES)) await ws.join('joinChatBox', t.id);
      const last = tickets.at(-1)!.id;
      expect((await ws.reply('joinChatBox', last)).data).toEqual({
        action: 'joinChatBox',
        error: 'ERR_LIST_LIMIT_REACHED',
      });
      // one already open is no new room
      await ws.join('joinChatBox', tickets[0]!.id);
      expect((await recordOf(co.companyId, co.admin.id)).chatBoxes).toHaveLength(SOCKET_MAX_CHAT_BOXES);
      await ws.join('leaveChatBox', tickets[0]!.id);
      await ws.join('joinChatBox', last);
      const record = await recordOf(co.companyId, co.admin.id);
      expect(record.chatBoxes).toHaveLength(SOCKET_MAX_CHAT_BOXES);
      expect(record.chatBoxes).toContain(last);
    } finally {
      ws.close();
    }
  });
});

describe('chat box switches', () => {
  it('leaving one chat box and opening the next back to back, as the web app does on a switch, leaves only the next open', async () => {
    const co = await newCompany('sock-switch');
    const { whatsapp } = await attendanceCompany(co);
    const tickets: { id: number }[] = [];
    for (let i = 0; i < 4; i++)
      tickets.push(
        await createTicket(co.adminToken, {
          contactId: (await createContact(co.adminToken)).id,
          whatsappId: whatsapp.id,
        }),
      );
    const ws = await realtimeClient(co.adminToken);
    try {
      await ws.join('joinChatBox', tickets[0]!.id);
      for (let i = 1; i < tickets.length; i++) {
        const from = ws.events.length;
        ws.send('leaveChatBox', tickets[i - 1]!.id);
        ws.send('joinChatBox', tickets[i]!.id);
        await ws.waitFor(() => since(ws, from, (e) => e.event === 'ready' || e.event === 'error').length === 2);
      }
      expect(ws.events.filter((e) => e.event === 'error')).toEqual([]);
      expect((await recordOf(co.companyId, co.admin.id)).chatBoxes).toEqual([tickets.at(-1)!.id]);
    } finally {
      ws.close();
    }
  });
});

describe('what the socket reads', () => {
  it('only known rooms and values are taken: anything else gets ERR_VALIDATION, changes nothing, and is never sent back', async () => {
    const co = await newCompany('sock-input');
    const ws = await realtimeClient(co.adminToken);
    const marker = 'zq'.repeat(20_000);
    const frames = [
      'not json',
      '',
      'null',
      '[]',
      '"joinTickets"',
      JSON.stringify({ action: 'joinTickets', value: marker }),
      JSON.stringify({ action: 'joinTickets', value: 'search' }),
      JSON.stringify({ action: 'joinTickets', value: ['open'] }),
      JSON.stringify({ action: 'joinTickets' }),
      JSON.stringify({ action: 'joinRoom', value: `company-${co.companyId}-ticket` }),
      JSON.stringify({ action: marker }),
      JSON.stringify({ action: 'joinChatBox', value: { id: 1 } }),
      JSON.stringify({ action: 'joinChatBox', value: `1${marker}` }),
      JSON.stringify({ action: 'joinChatBox', value: -1 }),
      JSON.stringify({ action: 'joinChatBox', value: 1.5 }),
      JSON.stringify({ action: 'joinChatBox', value: 1e20 }),
      JSON.stringify({ action: 'typing', value: null }),
    ];
    try {
      for (const frame of frames) ws.ws.send(frame);
      await ws.waitFor(() => ws.events.filter((e) => e.event === 'error').length === frames.length);
      expect(new Set(ws.events.map((e) => e.data.error))).toEqual(new Set(['ERR_VALIDATION']));
      // the socket is still served
      await ws.join('ping');
      const record = await recordOf(co.companyId, co.admin.id);
      expect(record).toMatchObject({ chatBoxes: [], ticketRooms: [], notification: false });
      expect(Object.keys(record)).not.toContain('value');

      // a known list room: stored once, answered with the action alone
      await ws.join('joinTickets', 'open');
      await ws.join('joinTickets', 'open');
      await ws.join('joinNotification', marker);
      expect(await recordOf(co.companyId, co.admin.id)).toMatchObject({ ticketRooms: ['open'], notification: true });
      for (const e of ws.events.filter((e) => e.event === 'ready')) expect(Object.keys(e.data)).toEqual(['action']);
      expect(JSON.stringify(ws.events)).not.toContain('zqzq');
    } finally {
      ws.close();
    }
  });

  it(`a socket past ${SOCKET_RATE.messages} messages in ${SOCKET_RATE.windowSeconds} s is told ERR_TOO_MANY_ATTEMPTS and closed`, async () => {
    const co = await newCompany('sock-rate');
    const ws = await realtimeClient(co.adminToken);
    const gone = closed(ws.ws);
    // twice the budget and one: however the burst falls across two windows, one of them is over
    for (let i = 0; i <= 2 * SOCKET_RATE.messages; i++) ws.send('ping');
    expect(await gone).toBe(1000);
    expect(ws.events.filter((e) => e.event === 'error').map((e) => e.data.error)).toContain('ERR_TOO_MANY_ATTEMPTS');
    expect(ws.events.filter((e) => e.event === 'ready').length).toBeLessThanOrEqual(2 * SOCKET_RATE.messages);
    // its records are gone with it
    const Items = await table().query(`C#${co.companyId}#WS`);
    expect(Items).toEqual([]);
  });

  it('a frame up to 128 KB is read; one byte more closes the socket with 1009', async () => {
    const co = await newCompany('sock-frame');
    const ws = await realtimeClient(co.adminToken);
    const frame = (bytes: number) => {
      const head = JSON.stringify({ action: 'ping', pad: '' });
      return JSON.stringify({ action: 'ping', pad: 'x'.repeat(bytes - head.length) });
    };
    expect(Buffer.byteLength(frame(SOCKET_MAX_FRAME_BYTES))).toBe(SOCKET_MAX_FRAME_BYTES);
    ws.ws.send(frame(SOCKET_MAX_FRAME_BYTES));
    await ws.waitFor((e) => e.event === 'ready' && e.data.action === 'ping');
    const gone = closed(ws.ws);
    ws.ws.send(frame(SOCKET_MAX_FRAME_BYTES + 1));
    expect(await gone).toBe(SOCKET_CLOSE_TOO_LARGE);
  });
});
