import { describe, expect, it } from 'vitest';
import { ADMIN, api, login, newCompany } from './helpers';
import { connectedWhatsapp, eventually } from './whatsapp-sim';
import { createUser } from './fixtures';
import type { FleetView } from '#shared/schemas/fleet';

/**
 * The operator's fleet view (issue 23, item 6): the super user sees the runners, every wanted
 * session with its holder and a plain reason; nobody else sees it.
 */
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
});
