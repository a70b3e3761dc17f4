import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ADMIN, api, login, newCompany, realtimeClient, sleep, type TestCompany, useStackFromWorker } from './helpers';
import { createUser } from './fixtures';

// Announcements go to every company, yet no other file writes them or counts their events: they run
// beside the other files, and each test finds its own by a unique title.

const file = (bytes: number[], type: string, name: string) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};
const PNG = [137, 80, 78, 71, 13, 10, 26, 10];
const PDF = [37, 80, 68, 70, 45, 49, 46, 52];

let superToken: string;
let co: TestCompany;
/** Announcements are platform-wide: each test names its own with a marker and searches by it. */
const mark = () => `ann${randomUUID().slice(0, 8)}`;
const list = async (token: string, marker: string, extra = '') =>
  (await api('GET', `/announcements?searchParam=${marker}&limit=100${extra}`, { token })).body.records as any[];

beforeAll(async () => {
  superToken = (await login(ADMIN.email, ADMIN.password)).token;
  co = await newCompany('an');
});

describe('announcements', () => {
  it('title and text are required; priority is 1, 2 or 3 and defaults to 3; new ones are active', async () => {
    const m = mark();
    const empty = await api('POST', '/announcements', { token: superToken, body: { title: '', text: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.details.map((d: any) => d.path[0]).sort()).toEqual(['text', 'title']);
    const badPriority = await api('POST', '/announcements', {
      token: superToken,
      body: { title: m, text: 'x', priority: 4 },
    });
    expect(badPriority.status).toBe(400);
    expect(badPriority.body.details[0].path).toEqual(['priority']);
    const created = await api('POST', '/announcements', { token: superToken, body: { title: m, text: 'Hello all' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: m, text: 'Hello all', priority: 3, status: true, mediaPath: null });
  });

  it('only super users write announcements (ERR_NO_PERMISSION for a company admin)', async () => {
    const m = mark();
    const own = (await api('POST', '/announcements', { token: superToken, body: { title: m, text: 'x' } })).body;
    for (const [method, path, body] of [
      ['POST', '/announcements', { title: m, text: 'x' }],
      ['PUT', `/announcements/${own.id}`, { title: 'Taken over' }],
      ['DELETE', `/announcements/${own.id}`, undefined],
      ['POST', `/announcements/${own.id}/media-upload`, file(PNG, 'image/png', 'a.png')],
      ['DELETE', `/announcements/${own.id}/media-upload`, undefined],
    ] as const) {
      const res = await api(method, path, { token: co.adminToken, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await api('GET', `/announcements/${own.id}`, { token: co.adminToken })).body.title).toBe(m);
  });

  it('every user of every company sees the active ones only, by priority then newest; super users see all', async () => {
    const m = mark();
    const make = async (body: Record<string, unknown>) =>
      (await api('POST', '/announcements', { token: superToken, body: { text: 'text', ...body } })).body;
    const low = await make({ title: `${m} low`, priority: 3 });
    const high = await make({ title: `${m} high`, priority: 1 });
    const mediumOld = await make({ title: `${m} medium old`, priority: 2 });
    await sleep(5);
    const mediumNew = await make({ title: `${m} medium new`, priority: '2' });
    const hidden = await make({ title: `${m} hidden`, priority: 1, status: 'inactive' });
    const agent = await createUser(co);

    for (const token of [agent.token, co.adminToken]) {
      expect((await list(token, m)).map((a) => a.id)).toEqual([high.id, mediumNew.id, mediumOld.id, low.id]);
      const res = await api('GET', `/announcements/${hidden.id}`, { token });
      expect(res.status).toBe(404);
    }
    // the super user's page lists every one (newest first); the popover asks for the active ones
    expect((await list(superToken, m)).map((a) => a.id)).toEqual([
      hidden.id,
      mediumNew.id,
      mediumOld.id,
      high.id,
      low.id,
    ]);
    expect((await list(superToken, m, '&status=active')).map((a) => a.id)).not.toContain(hidden.id);

    // deactivating hides it from everyone else; reactivating brings it back in its place
    await api('PUT', `/announcements/${high.id}`, { token: superToken, body: { status: false } });
    expect((await list(agent.token, m)).map((a) => a.id)).toEqual([mediumNew.id, mediumOld.id, low.id]);
    await api('PUT', `/announcements/${hidden.id}`, { token: superToken, body: { status: true } });
    expect((await list(agent.token, m)).map((a) => a.id)).toEqual([hidden.id, mediumNew.id, mediumOld.id, low.id]);
    expect((await api('DELETE', `/announcements/${low.id}`, { token: superToken })).status).toBe(200);
    expect((await list(agent.token, m)).map((a) => a.id)).not.toContain(low.id);
    expect((await api('GET', `/announcements/${low.id}`, { token: superToken })).status).toBe(404);
  });

  it('read marks are per user: opening one clears its unread mark for that user only', async () => {
    const m = mark();
    const a = (await api('POST', '/announcements', { token: superToken, body: { title: m, text: 'read me' } })).body;
    const other = await newCompany('an-read');
    expect((await list(co.adminToken, m))[0].read).toBe(false);
    expect((await api('POST', `/announcements/${a.id}/read`, { token: co.adminToken })).status).toBe(200);
    expect((await list(co.adminToken, m))[0].read).toBe(true);
    expect((await list(other.adminToken, m))[0].read).toBe(false);
    await api('PUT', `/announcements/${a.id}`, { token: superToken, body: { status: false } });
    expect((await api('POST', `/announcements/${a.id}/read`, { token: other.adminToken })).status).toBe(404);
  });

  it('media: a png or jpeg image, seen by users of other companies; other files are refused (415)', async () => {
    const m = mark();
    const a = (await api('POST', '/announcements', { token: superToken, body: { title: m, text: 'with image' } })).body;
    const pdf = await api('POST', `/announcements/${a.id}/media-upload`, {
      token: superToken,
      body: file(PDF, 'application/pdf', 'doc.pdf'),
    });
    expect(pdf.status).toBe(415);
    expect(pdf.body.error).toBe('ERR_UPLOAD_TYPE_NOT_ALLOWED');
    const up = await api('POST', `/announcements/${a.id}/media-upload`, {
      token: superToken,
      body: file(PNG, 'image/png', 'banner.png'),
    });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ mediaName: 'banner.png' });
    const seen = (await list(co.adminToken, m))[0];
    expect(seen.mediaName).toBe('banner.png');
    const image = await fetch(seen.mediaUrl);
    expect(image.status).toBe(200);
    expect([...new Uint8Array(await image.arrayBuffer())]).toEqual(PNG);
    const removed = await api('DELETE', `/announcements/${a.id}/media-upload`, { token: superToken });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null });
  });

  it('announcement events reach users of every company: created and updated active ones, and removals', async () => {
    const m = mark();
    const other = await newCompany('an-live');
    const agent = await createUser(other);
    const ws = await realtimeClient(agent.token);
    try {
      const a = (await api('POST', '/announcements', { token: superToken, body: { title: m, text: 'live' } })).body;
      const created = await ws.waitFor(
        (e) => e.event === `company-${other.companyId}-announcement` && e.data.action === 'create',
      );
      expect(created.data.record).toMatchObject({ id: a.id, title: m, priority: 3 });
      await api('PUT', `/announcements/${a.id}`, { token: superToken, body: { status: false } });
      const gone = await ws.waitFor(
        (e) => e.event === `company-${other.companyId}-announcement` && e.data.action === 'delete',
      );
      expect(gone.data).toEqual({ action: 'delete', id: a.id });
      // an inactive one travels to nobody as a record
      await api('PUT', `/announcements/${a.id}`, { token: superToken, body: { text: 'still hidden' } });
      await sleep(300);
      expect(ws.events.filter((e) => e.data?.record?.text === 'still hidden')).toEqual([]);
    } finally {
      ws.close();
    }
  });

  it('an announcement reads the open sockets, not the companies: its reads do not grow with the number of companies', async () => {
    await useStackFromWorker();
    const { metrics } = await import('../../functions/lib/metrics');
    const { createAnnouncement, deleteAnnouncement } = await import('../../functions/lib/announcements/service');
    // more companies than the socket list has shards, each with a user online
    const sockets = [];
    for (let i = 0; i < 6; i++) sockets.push(await realtimeClient((await newCompany(`an-n${i}`)).adminToken));
    try {
      const m = mark();
      const { result, usage } = await metrics.measure(() => createAnnouncement({ title: m, text: 'to all' }));
      // one Query per shard of the platform-wide socket list (4), whatever the number of companies
      expect(usage.byCommand.QueryCommand, JSON.stringify(usage.byCommand)).toBeLessThanOrEqual(4);
      for (const ws of sockets)
        expect(
          (await ws.waitFor((e) => e.event.endsWith('-announcement') && e.data.record?.title === m)).data.record.id,
        ).toBe(result.id);
      await deleteAnnouncement(result.id);
    } finally {
      for (const ws of sockets) ws.close();
    }
  });
});
