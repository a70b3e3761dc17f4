import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { api, login, newCompany, realtimeClient, sleep, table } from './helpers';

const DEFAULTS = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  CheckMsgIsGroup: 'enabled',
  call: 'disabled',
  chatBotType: 'text',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'disabled',
  userCreation: 'enabled',
  initialMenu: 'open',
  // issue 24: presence and the soft lock
  awayAfterMinutes: '5',
  takeoverByAnyUser: 'disabled',
  // issue 39: the copilot's prompt (none: the ticket's queue's)
  copilotPromptId: '',
  // issue 39: the admins' monthly cap of AI calls (none)
  aiMonthlyCallLimit: '',
};

describe('settings', () => {
  it('GET /settings lists every option key of section 9 with its default (the secret asaas only for super users)', async () => {
    const co = await newCompany('s-list');
    const res = await api('GET', '/settings', { token: co.adminToken });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.body.map((s: any) => [s.key, s.value]))).toEqual(DEFAULTS);
  });

  it("PUT /settings/{key} stores a value among the key's options; a bad value and an unknown key are ERR_VALIDATION", async () => {
    const co = await newCompany('s-put');
    const ok = await api('PUT', '/settings/scheduleType', { token: co.adminToken, body: { value: 'queue' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ key: 'scheduleType', value: 'queue' });
    const list = await api('GET', '/settings', { token: co.adminToken });
    expect(list.body).toContainEqual({ key: 'scheduleType', value: 'queue' });
    const bad = await api('PUT', '/settings/scheduleType', { token: co.adminToken, body: { value: 'sometimes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    const unknown = await api('PUT', '/settings/noSuchKey', { token: co.adminToken, body: { value: 'enabled' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('ERR_VALIDATION');
  });

  it("settings are per company: one company's change does not touch another", async () => {
    const a = await newCompany('s-iso-a');
    const b = await newCompany('s-iso-b');
    await api('PUT', '/settings/sendGreetingAccepted', { token: a.adminToken, body: { value: 'enabled' } });
    expect((await api('GET', '/settings', { token: b.adminToken })).body).toContainEqual({
      key: 'sendGreetingAccepted',
      value: 'disabled',
    });
  });

  it('only admins change settings (ERR_NO_PERMISSION); every user reads them', async () => {
    const co = await newCompany('s-perm');
    const email = `agent-${randomUUID().slice(0, 8)}@test.dev`;
    await api('POST', '/users', { token: co.adminToken, body: { name: 'Agent', email, password: 'secret123' } });
    const agent = (await login(email, 'secret123')).token;
    const res = await api('PUT', '/settings/call', { token: agent, body: { value: 'enabled' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('GET', '/settings', { token: agent })).status).toBe(200);
  });

  it('a setting change is announced on the own company channel only', async () => {
    const co = await newCompany('s-event');
    const other = await newCompany('s-event-other');
    const mine = await realtimeClient(co.adminToken);
    const theirs = await realtimeClient(other.adminToken);
    await api('PUT', '/settings/userRating', { token: co.adminToken, body: { value: 'enabled' } });
    const ev = await mine.waitFor((e) => e.event === `company-${co.companyId}-setting`);
    expect(ev.data).toEqual({ action: 'update', setting: { key: 'userRating', value: 'enabled' } });
    await sleep(200);
    expect(theirs.events.filter((e) => e.event.endsWith('-setting'))).toEqual([]);
    mine.close();
    theirs.close();
  });

  it("a company admin cannot write the platform's payment keys (ERR_NO_PERMISSION), and one stored in a company before that rule is never answered or announced", async () => {
    const co = await newCompany('s-secret');
    const email = `agent-${randomUUID().slice(0, 8)}@test.dev`;
    await api('POST', '/users', { token: co.adminToken, body: { name: 'Agent', email, password: 'secret123' } });
    const agent = (await login(email, 'secret123')).token;
    const adminRt = await realtimeClient(co.adminToken);
    const agentRt = await realtimeClient(agent);
    const secret = `asaas-key-${randomUUID()}`;
    for (const key of ['asaas', 'asaasWebhookToken']) {
      const res = await api('PUT', `/settings/${key}`, { token: co.adminToken, body: { value: secret } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'ERR_NO_PERMISSION' });
      expect(await table().get(`C#${co.companyId}`, `SETTING#${key}`)).toBeUndefined();
      // as the old rule let it be stored
      await table().set(`C#${co.companyId}`, `SETTING#${key}`, { key, value: secret });
    }
    // positive control: a plain setting change reaches both sockets after the refused ones
    await api('PUT', '/settings/call', { token: co.adminToken, body: { value: 'enabled' } });
    for (const rt of [adminRt, agentRt])
      await rt.waitFor((e) => e.event === `company-${co.companyId}-setting` && e.data.setting.key === 'call');
    for (const rt of [adminRt, agentRt]) {
      expect(rt.events.filter((e) => JSON.stringify(e).includes(secret))).toEqual([]);
      rt.close();
    }
    for (const token of [co.adminToken, agent]) {
      const list = await api('GET', '/settings', { token });
      expect(list.status).toBe(200);
      expect(list.body.map((x: any) => x.key)).not.toContain('asaas');
      expect(JSON.stringify(list.body)).not.toContain(secret);
    }
    const session = await login(co.admin.email, co.admin.password);
    expect(JSON.stringify(session.company)).not.toContain(secret);
    expect(session.company.settings.map((x: any) => x.key)).toContain('call');
    // every key and role, and the platform's own keys: settings-policy.test.ts
  });

  it('company business hours: defaults until set, PUT by the own admin only, another company id is 404', async () => {
    const co = await newCompany('s-hours');
    const other = await newCompany('s-hours-other');
    const initial = await api('GET', `/companies/${co.companyId}/schedules`, { token: co.adminToken });
    expect(initial.status).toBe(200);
    expect(initial.body.schedules).toHaveLength(7);
    expect(initial.body.schedules[0]).toEqual({
      weekday: 'Segunda-feira',
      weekdayEn: 'monday',
      startTime: '08:00',
      endTime: '18:00',
    });
    const hours = initial.body.schedules.map((d: any) => ({ ...d, startTime: '07:30', endTime: '19:00' }));
    const put = await api('PUT', `/companies/${co.companyId}/schedules`, {
      token: co.adminToken,
      body: { schedules: hours },
    });
    expect(put.status).toBe(200);
    expect((await api('GET', `/companies/${co.companyId}/schedules`, { token: co.adminToken })).body.schedules).toEqual(
      hours,
    );
    const bad = await api('PUT', `/companies/${co.companyId}/schedules`, {
      token: co.adminToken,
      body: { schedules: [{ ...hours[0], endTime: '7pm' }] },
    });
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(
      (
        await api('PUT', `/companies/${co.companyId}/schedules`, {
          token: other.adminToken,
          body: { schedules: hours },
        })
      ).status,
    ).toBe(404);
    expect((await api('GET', `/companies/${co.companyId}/schedules`, { token: other.adminToken })).status).toBe(404);
  });
});
