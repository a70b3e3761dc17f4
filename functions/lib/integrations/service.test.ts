import { beforeEach, describe, expect, it, vi } from 'vitest';
import { QueueIntegrationBody, QueueIntegrationUpdateBody } from '#shared/schemas/integrations';
import type { Item, Key } from '../db';
import { createIntegration, updateIntegration } from './service';

const { rows, recordAudit } = vi.hoisted(() => ({ rows: new Map<string, unknown>(), recordAudit: vi.fn() }));
vi.mock('../db', () => ({
  putItem: async (item: Item) => void rows.set(`${item.pk}|${item.sk}`, item),
  getItem: async (key: Key) => rows.get(`${key.pk}|${key.sk}`),
  stripKeys: ({ pk: _pk, sk: _sk, ...rest }: Item) => rest,
}));
vi.mock('../ids', () => ({ companyScope: () => 'scope', nextId: async () => 7 }));
vi.mock('../realtime', () => ({ publish: async () => undefined }));
vi.mock('../secrets', () => ({ sealSecret: async (v: string) => v, openSecret: async (v: string) => v }));
vi.mock('../queues/service', () => ({ unlinkQueues: async () => undefined }));
vi.mock('../audit/record', () => ({ recordAudit }));

const fields = (body: QueueIntegrationBody) => QueueIntegrationBody.parse(body);
const changes = (body: QueueIntegrationUpdateBody) => QueueIntegrationUpdateBody.parse(body);
const actor = { actorId: 3, address: '203.0.113.9' };

describe('saving an integration URL is audited', () => {
  beforeEach(() => {
    rows.clear();
    recordAudit.mockClear();
  });

  it('creating and editing the URL record who changed it from what to what', async () => {
    await createIntegration(1, fields({ type: 'n8n', name: 'Flow', urlN8N: 'https://n8n.example.test/a' }), actor);
    await updateIntegration(1, 7, changes({ urlN8N: 'http://[::ffff:7f00:1]/b' }), actor);
    expect(recordAudit.mock.calls.map(([entry]) => entry)).toEqual([
      {
        companyId: 1,
        action: 'integration.url_changed',
        actorId: 3,
        address: '203.0.113.9',
        target: { type: 'queueIntegration', id: 7, name: 'Flow' },
        changes: { url: { from: '', to: 'https://n8n.example.test/a' } },
      },
      expect.objectContaining({
        actorId: 3,
        changes: { url: { from: 'https://n8n.example.test/a', to: 'http://[::ffff:7f00:1]/b' } },
      }),
    ]);
  });

  it('a save that keeps the URL records nothing', async () => {
    await createIntegration(1, fields({ type: 'webhook', name: 'Hook', urlN8N: 'https://h.example.test/' }), actor);
    recordAudit.mockClear();
    await updateIntegration(1, 7, changes({ name: 'Hook 2', urlN8N: 'https://h.example.test/' }), actor);
    await updateIntegration(1, 7, changes({ rotateSecret: true }), actor);
    expect(recordAudit).not.toHaveBeenCalled();
  });
});
