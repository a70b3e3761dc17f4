import { describe, expect, it } from 'vitest';
import { api, newCompany } from './helpers';
import { rawTable } from './whatsapp-sim';

/** The company's audit trail, oldest first (read straight from the table). */
const trail = (companyId: number) => rawTable().query(`C#${companyId}#AUDIT`);

describe('integration URLs: audited when saved, odd spellings never a server error', () => {
  it('setting and changing an integration URL is audited with from and to; a rename is not', async () => {
    const co = await newCompany('urlaudit');
    const created = await api('POST', '/queueIntegration', {
      token: co.adminToken,
      body: { type: 'webhook', name: 'Hook', urlN8N: 'https://hooks.example.test/a' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(
      (await api('PUT', `/queueIntegration/${id}`, { token: co.adminToken, body: { name: 'Hook 2' } })).status,
    ).toBe(200);
    const moved = await api('PUT', `/queueIntegration/${id}`, {
      token: co.adminToken,
      body: { urlN8N: 'https://hooks.example.test/b' },
    });
    expect(moved.status).toBe(200);
    const entries = (await trail(co.companyId)).filter((e) => e.action === 'integration.url_changed');
    // who and from where: the admin, from this test's address
    for (const e of entries) {
      expect(e.actorId).toBe(co.admin.id);
      expect(e.address).toEqual(expect.any(String));
    }
    expect(entries.map((e) => [e.target, e.changes])).toEqual([
      [{ type: 'queueIntegration', id, name: 'Hook' }, { url: { from: '', to: 'https://hooks.example.test/a' } }],
      [
        { type: 'queueIntegration', id, name: 'Hook 2' },
        { url: { from: 'https://hooks.example.test/a', to: 'https://hooks.example.test/b' } },
      ],
    ]);
  });

  it.each([
    'http://0x7f.1/',
    'http://2130706433/',
    'http://[::ffff:7f00:1]/',
    'http://[fd00:ec2::254]/',
    'http://[::1',
    'http://169.254.169.254%2f/',
    `http://${'a'.repeat(300)}.test/`,
  ])('saving %s answers a catalogued status, never a 5xx', async (urlN8N) => {
    const co = await newCompany('urlodd');
    const res = await api('POST', '/queueIntegration', {
      token: co.adminToken,
      body: { type: 'n8n', name: 'Flow', urlN8N },
    });
    expect([201, 400]).toContain(res.status);
    if (res.status === 400) expect(res.body.error).toBe('ERR_VALIDATION');
  });
});
