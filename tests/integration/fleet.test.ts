import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { ADMIN, api, baseUrl, login, newCompany } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { createUser } from './fixtures';
import type { FleetView } from '#shared/schemas/fleet';
import { manifest } from '../../infra/manifest';

/**
 * The operator's fleet view (issue 23, item 6): the super user sees the runners, every wanted
 * session with its holder and a plain reason, the sessions WhatsApp stopped, the queues' depths and
 * dead letters, and redrives dead letters; nobody else sees or does any of it.
 */
const fleet = async (token: string) => {
  const res = await api<FleetView>('GET', '/fleet', { token });
  expect(res.status).toBe(200);
  return res.body;
};

/** The local queues' own counters (local stack only): dead letters now and arrivals ever. */
async function queueStats() {
  return (await fetch(`${baseUrl()}/@queues/idle`)).json();
}

/** Set-up the API does not offer: a message straight onto a queue, as a producer would send it. */
async function sendToQueue(name: string, body: string) {
  const sqs = new SQSClient({
    region: 'local',
    endpoint: baseUrl(),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await sqs.send(new SendMessageCommand({ QueueUrl: `${baseUrl()}/@sqs/${name}`, MessageBody: body }));
}

describe('fleet view', () => {
  it('the super user sees a live runner and a connected session with its holder', async () => {
    const co = await newCompany('fleet');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Fleet line' });
    const { token } = await login(ADMIN.email, ADMIN.password);

    const view = await eventually(async () => {
      const res = await api<FleetView>('GET', '/fleet', { token });
      expect(res.status).toBe(200);
      const session = res.body.sessions.find((s) => s.companyId === co.companyId && s.whatsappId === w.id);
      return session?.reason === 'connected' && session.holder ? res.body : undefined;
    });

    const alive = view.runners.filter((r) => r.alive);
    expect(alive.length).toBeGreaterThanOrEqual(1);
    expect(alive[0]).toMatchObject({ state: 'running' });
    const session = view.sessions.find((s) => s.companyId === co.companyId && s.whatsappId === w.id)!;
    expect(session).toMatchObject({ name: 'Fleet line', status: 'CONNECTED', reason: 'connected', holderAlive: true });
    expect(view.runners.map((r) => r.id)).toContain(session.holder);
  });

  it('an admin and an attendant are refused with the catalogued 403', async () => {
    const co = await newCompany('fleet-deny');
    const attendant = await createUser(co, { profile: 'user' });
    for (const token of [co.adminToken, attendant.token]) {
      const res = await api('GET', '/fleet', { token });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });

  it('a session WhatsApp stopped (logged out on the phone) is listed with no holder, when and why; a new QR code clears it', async () => {
    const co = await newCompany('fleet-stop');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Stopped line' });
    const { token } = await login(ADMIN.email, ADMIN.password);
    const mine = (view: FleetView) =>
      view.sessions.filter((s) => s.companyId === co.companyId && s.whatsappId === w.id);

    const before = Date.now();
    await phone(co.companyId, w.id).drop(401);
    const [stopped] = await eventually(async () => {
      const rows = mine(await fleet(token));
      return rows.length === 1 && rows[0]!.stoppedAt ? rows : undefined;
    });
    expect(stopped).toMatchObject({
      name: 'Stopped line',
      holder: null,
      status: 'DISCONNECTED',
      reason: 'logged_out_on_phone',
    });
    expect(Date.parse(stopped!.stoppedAt!)).toBeGreaterThanOrEqual(before - 1000);

    // the admin asks for a new QR code: the session is wanted again, the stop note goes
    expect((await api('PUT', `/whatsappsession/${w.id}`, { token: co.adminToken })).status).toBe(200);
    const [back] = await eventually(async () => {
      const rows = mine(await fleet(token));
      return rows.length === 1 && rows[0]!.stoppedAt === null && rows[0]!.holder ? rows : undefined;
    });
    expect(back!.reason).toBe('needs_qr');
  });

  it("lists every queue with its depths and dead letters; a redrive sends a queue's dead letters back and is audited", async () => {
    const { token, user } = await login(ADMIN.email, ADMIN.password);
    const view = await fleet(token);
    expect(view.queues.map((q) => q.name)).toEqual(manifest.queues.map((q) => q.name).sort());
    for (const q of view.queues)
      for (const n of [q.visible, q.inFlight, q.delayed, q.deadLetters]) expect(n).toBeGreaterThanOrEqual(0);

    // a job no consumer can read fails every receive (4 on this queue) and lands in the dead letters
    const deadBefore = view.queues.find((q) => q.name === 'schedules')!.deadLetters;
    await sendToQueue('schedules', 'not a job');
    await eventually(
      async () => (await fleet(token)).queues.find((q) => q.name === 'schedules')!.deadLetters > deadBefore,
    );

    const arrivals = async () => (await queueStats()).deadLettered.schedules as number;
    const arrivedBefore = await arrivals();
    const redriven = await api('POST', '/fleet/queues/schedules/redrive', { token });
    expect(redriven.status).toBe(200);
    expect(redriven.body).toEqual({ name: 'schedules', moved: deadBefore + 1 });
    // received again from the queue and, still unreadable, dead again after its receives: one more arrival each
    await eventually(async () => (await arrivals()) === arrivedBefore + deadBefore + 1);

    const trail = await api('GET', '/audit?companyId=1&action=queue.redriven', { token });
    expect(trail.status).toBe(200);
    expect(trail.body.entries[0]).toMatchObject({
      action: 'queue.redriven',
      actorId: user.id,
      target: { type: 'queue', id: 'schedules' },
      changes: { messages: deadBefore + 1 },
    });
  });

  it('a redrive names a queue of the platform: an unknown one is 404 (also one named like a built-in property), a malformed name 400', async () => {
    const { token } = await login(ADMIN.email, ADMIN.password);
    for (const name of ['nope', 'constructor']) {
      const unknown = await api('POST', `/fleet/queues/${name}/redrive`, { token });
      expect(unknown.status, name).toBe(404);
      expect(unknown.body.error).toBe('ERR_NOT_FOUND');
    }
    const bad = await api('POST', '/fleet/queues/Bad_Name!/redrive', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
  });

  it('an admin and an attendant cannot redrive dead letters', async () => {
    const co = await newCompany('fleet-redrive-deny');
    const attendant = await createUser(co, { profile: 'user' });
    for (const token of [co.adminToken, attendant.token]) {
      const res = await api('POST', '/fleet/queues/schedules/redrive', { token });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });
});
