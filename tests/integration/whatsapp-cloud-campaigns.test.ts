import { describe, it, expect } from 'vitest';
import { api, newCompany, queuesIdle, runTimer, table, type TestCompany, usesTimers } from './helpers';
import { messageKeysOfId } from '../../functions/lib/messages/repo';
import { connectedWhatsapp, eventually } from './whatsapp-sim';
import { cloudLine, customer, meta, sendsTo, type CloudLine } from './cloud-fixtures';

usesTimers('campaigns');

/**
 * Campaigns on Cloud API connections (issue 36, item 5) over HTTP against the local stack: a cloud
 * campaign sends one approved template per contact (outside any 24-hour window), its values filled
 * per contact; the limiter paces it by Meta's limits, not the anti-ban intervals; Meta's rate
 * limits make a send wait and go again, never fail it.
 */

const ORDER = {
  name: 'order_update',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
    { type: 'BODY', text: 'Olá {{1}}, novidades na {{2}}!', example: { body_text: [['Maria', 'Loja']] } },
  ],
};
const DRAFT = {
  name: 'draft_notice',
  language: 'en_US',
  status: 'PENDING',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Soon' }],
};
const orderTemplate = {
  name: 'order_update',
  language: 'pt_BR',
  header: { '1': '#77' },
  body: { '1': '{{firstName}}', '2': '{{loja}}' },
};

async function listOf(co: TestCompany, numbers: string[]) {
  const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Clientes' } })).body;
  for (const [i, number] of numbers.entries()) {
    const res = await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: `Cliente${i} Silva`, number, contactListId: list.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  return list as { id: number };
}

async function setup(label: string, script: Record<string, unknown> = {}, count = 3) {
  const co = await newCompany(label);
  const line = await cloudLine(co, { templates: [ORDER, DRAFT], ...script });
  await eventually(async () => {
    const list = (await api('GET', `/whatsapp/${line.id}/templates`, { token: co.adminToken })).body;
    return Array.isArray(list) && list.length === 2 ? list : undefined;
  });
  const settings = await api('POST', '/campaign-settings', {
    token: co.adminToken,
    body: {
      settings: {
        messageInterval: 20,
        longerIntervalAfter: 0,
        greaterInterval: 0,
        variables: [{ key: 'loja', value: 'Loja Centro' }],
      },
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const numbers = Array.from({ length: count }, customer);
  const list = await listOf(co, numbers);
  return { co, line, list, numbers };
}

const create = (co: TestCompany, body: Record<string, unknown>) =>
  api('POST', '/campaigns', { token: co.adminToken, body: { name: 'Avisos', message1: '', ...body } });

async function runToEnd(co: TestCompany, body: Record<string, unknown>) {
  const created = await create(co, { ...body, scheduledAt: new Date(Date.now() - 1000).toISOString() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await runTimer('campaigns');
  return eventually(async () => {
    const c = (await api('GET', `/campaigns/${created.body.id}`, { token: co.adminToken })).body;
    return c.status === 'FINALIZADA' ? c : undefined;
  }, 20_000);
}

const storedOf = async (co: TestCompany, messageId: string) => {
  const keys = messageKeysOfId(co.companyId, messageId)!;
  return (await table().get(keys.pk, keys.sk)) as Record<string, any>;
};
/** What a contact's message keeps: the campaign's template, its variables filled for that contact. */
const orderTemplateFor = (contactName: string) => ({
  ...orderTemplate,
  body: { '1': contactName.split(' ')[0], '2': 'Loja Centro' },
});

/** The template sends Meta took (answered with a wamid), by recipient. */
const acceptedTemplates = async (line: CloudLine) => (await sendsTo(line)).filter((r) => r.body?.type === 'template');

describe('campaigns on Cloud API connections', () => {
  it('a cloud campaign is a template: required, known, approved, every variable given; no file list or media; never on WhatsApp Web', async () => {
    const { co, line, list } = await setup('cpc-valid', {}, 1);
    const noTemplate = await create(co, { message1: 'Olá', whatsappId: line.id, contactListId: list.id });
    expect(noTemplate.status).toBe(400);
    expect(noTemplate.body.error).toBe('ERR_VALIDATION');
    expect(noTemplate.body.details.map((d: any) => d.path.join('.'))).toContain('template');

    const unknown = await create(co, {
      whatsappId: line.id,
      contactListId: list.id,
      template: { name: 'nope', language: 'pt_BR' },
    });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'ERR_TEMPLATE_NOT_FOUND']);

    const pending = await create(co, {
      whatsappId: line.id,
      contactListId: list.id,
      template: { name: 'draft_notice', language: 'en_US' },
    });
    expect([pending.status, pending.body.error]).toEqual([409, 'ERR_TEMPLATE_NOT_SENDABLE']);

    const unfilled = await create(co, {
      whatsappId: line.id,
      contactListId: list.id,
      template: { ...orderTemplate, body: { '1': '{{firstName}}', '2': '  ' } },
    });
    expect(unfilled.status).toBe(400);
    expect(unfilled.body.details.map((d: any) => d.path.join('.'))).toEqual(['template.body.2']);

    const files = (
      await api('POST', '/files', {
        token: co.adminToken,
        body: { name: 'Catálogo', message: 'Arquivos', options: [{ name: 'Tabela' }] },
      })
    ).body;
    const withFiles = await create(co, {
      whatsappId: line.id,
      contactListId: list.id,
      fileListId: files.id,
      template: orderTemplate,
    });
    expect(withFiles.status).toBe(400);
    expect(withFiles.body.details.map((d: any) => d.path.join('.'))).toEqual(['fileListId']);

    const web = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Web line' });
    const onWeb = await create(co, {
      message1: 'Olá',
      whatsappId: web.id,
      contactListId: list.id,
      template: orderTemplate,
    });
    expect([onWeb.status, onWeb.body.error]).toEqual([400, 'ERR_TEMPLATES_NEED_CLOUD']);

    // no message text is needed beside a template; nothing refused above was stored
    const ok = await create(co, { whatsappId: line.id, contactListId: list.id, template: orderTemplate });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.template).toEqual(orderTemplate);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('png')], { type: 'image/png' }), 'promo.png');
    const media = await api('POST', `/campaigns/${ok.body.id}/media-upload`, { token: co.adminToken, body: form });
    expect(media.status).toBe(400);
    const all = (await api('GET', '/campaigns', { token: co.adminToken })).body;
    expect(all.records.map((c: any) => c.id)).toEqual([ok.body.id]);
  });

  it("runs to FINALIZADA: one template per contact outside any window, values filled per contact, paced by Meta's limits", async () => {
    const { co, line, list, numbers } = await setup('cpc-run', { messagingLimit: 'TIER_2K' });
    const done = await runToEnd(co, { whatsappId: line.id, contactListId: list.id, template: orderTemplate });
    expect(done).toMatchObject({ validContacts: 3, template: orderTemplate });
    const sent = await acceptedTemplates(line);
    expect(sent.map((r) => r.body.to).sort()).toEqual([...numbers].sort());
    const first = sent.find((r) => r.body.to === numbers[0])!;
    expect(first.body.template.name).toBe('order_update');
    const params = (type: string) =>
      first.body.template.components.find((c: any) => c.type === type).parameters.map((p: any) => p.text);
    expect(params('header')).toEqual(['#77']);
    expect(params('body')).toEqual(['Cliente0', 'Loja Centro']);
    // each message keeps its template, filled for its contact, and Meta's wamid
    await queuesIdle();
    const report = (await api('GET', `/campaigns/${done.id}/report`, { token: co.adminToken })).body;
    expect(report).toMatchObject({ validContacts: 3, sent: 3, failed: 0 });
    for (const shipping of report.shipping) {
      const m = await storedOf(co, shipping.messageId);
      expect(m).toMatchObject({ ack: 1, fromMe: true, template: orderTemplateFor(shipping.name) });
      expect(m.cloudWamid).toBeTruthy();
    }
    // the limiter shows the portfolio's messaging limit, and no warm-up
    const limits = (await api('GET', '/campaigns/limits', { token: co.adminToken })).body;
    expect(limits.find((l: any) => l.whatsappId === line.id)).toMatchObject({
      dailyCap: 2000,
      sentToday: 3,
      warmingUp: false,
    });
  });

  it("Meta's rate limit on a send makes it wait and go again: every contact gets exactly one template, nothing fails", async () => {
    const rateLimit = { code: 130429, title: 'Rate limit hit' };
    const { co, line, list, numbers } = await setup('cpc-rate', { sendErrors: [rateLimit, rateLimit] });
    const done = await runToEnd(co, { whatsappId: line.id, contactListId: list.id, template: orderTemplate });
    await queuesIdle();
    const tries = await acceptedTemplates(line);
    // the first contact's template was refused twice, then taken; every other contact's once
    const perRecipient = new Map<string, number>();
    for (const r of tries) perRecipient.set(r.body.to, (perRecipient.get(r.body.to) ?? 0) + 1);
    expect([...perRecipient.values()].sort()).toEqual([1, 1, 3]);
    expect(new Set(perRecipient.keys())).toEqual(new Set(numbers));
    const report = (await api('GET', `/campaigns/${done.id}/report`, { token: co.adminToken })).body;
    expect(report).toMatchObject({ sent: 3, failed: 0 });
    for (const shipping of report.shipping) {
      const m = await storedOf(co, shipping.messageId);
      expect(m.ack).toBe(1);
      expect(m.cloudWamid).toBeTruthy();
      // one message per contact's conversation: the retried send stored nothing twice
      const keys = messageKeysOfId(co.companyId, shipping.messageId)!;
      const conversation = (await table().query(keys.pk)).filter((i) => String(i.sk).startsWith('M#'));
      expect(conversation.length).toBe(1);
    }
  });

  it('Meta refusing a template it had taken for its rate limits (a failed status, 131056) sends it again later: nothing fails, nothing goes twice', async () => {
    const { co, line, list, numbers } = await setup('cpc-async-rate');
    const done = await runToEnd(co, { whatsappId: line.id, contactListId: list.id, template: orderTemplate });
    await queuesIdle();
    const before = (await api('GET', `/campaigns/${done.id}/report`, { token: co.adminToken })).body;
    const firstShipping = before.shipping.find((s: { number: string }) => s.number === numbers[0]);
    const wamid = (await storedOf(co, firstShipping.messageId)).cloudWamid as string;
    expect(wamid).toMatch(/^wamid\./);
    const refuse = () =>
      meta('/_status', {
        phoneNumberId: line.phoneNumberId,
        wamid,
        recipient: numbers[0],
        status: 'failed',
        errorCode: 131056,
        errorTitle: 'Pair rate limit hit',
      });
    await refuse();
    // Meta tells it twice: one send again, not two
    await refuse();
    const again = await eventually(async () => {
      const sends = (await acceptedTemplates(line)).filter((r) => r.body.to === numbers[0]);
      return sends.length === 2 ? sends : undefined;
    }, 20_000);
    await queuesIdle();
    expect(again).toHaveLength(2);
    const report = (await api('GET', `/campaigns/${done.id}/report`, { token: co.adminToken })).body;
    expect(report).toMatchObject({ sent: 3, failed: 0 });
    const shipping = report.shipping.find((s: { number: string }) => s.number === numbers[0]);
    expect(shipping.status).toBe('sent');
    const m = await storedOf(co, shipping.messageId);
    expect(m.cloudWamid).toBeTruthy();
    expect(m.cloudWamid).not.toBe(wamid);
  });
});
