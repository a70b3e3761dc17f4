import { describe, expect, it } from 'vitest';
import { isValidPixPayload, parseTlv } from '../../functions/lib/billing/pix';
import { advanceDueDate } from '../../shared/schemas/billing';
import {
  ADMIN,
  api,
  baseUrl,
  login,
  newCompany,
  queuesIdle,
  realtimeClient,
  runTimer,
  table,
  usesTimers,
} from './helpers';
import { createUser } from './fixtures';

// the invoices timer bills and blocks every company: no other file's tick may run meanwhile
usesTimers('invoices');

const DAY = 24 * 3600 * 1000;
const superToken = async () => (await login(ADMIN.email, ADMIN.password)).token;

/** A plan of the test's own (plan 1 is shared by every other test file). */
async function ownPlan(token: string, fields: Record<string, unknown> = {}) {
  const res = await api('POST', '/plans', {
    token,
    body: {
      name: `Billing ${Math.random().toString(36).slice(2, 8)}`,
      users: 5,
      connections: 2,
      queues: 5,
      value: 49.9,
      ...fields,
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function setCompany(token: string, id: number, body: Record<string, unknown>) {
  const res = await api('PUT', `/companies/${id}`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const confirmSandbox = (paymentId: string) =>
  fetch(`${baseUrl()}/@payments/${paymentId}/confirm`, { method: 'POST' }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));

describe('billing: invoices, checkout by PIX, expiry', () => {
  it('an expired company: attendants are refused, admins get a restricted session; the timer issues one invoice per period; a sandbox payment renews at once', async () => {
    const sup = await superToken();
    const co = await newCompany('bill1');
    const agent = await createUser(co);
    const plan = await ownPlan(sup);
    const yesterday = new Date(Date.now() - DAY).toISOString();
    await setCompany(sup, co.companyId, { planId: plan.id, dueDate: yesterday, recurrence: 'MENSAL' });

    const refused = await api('POST', '/auth/login', { body: { email: agent.email, password: 'secret123' } });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('ERR_COMPANY_EXPIRED');
    // the attendant's open session ends too
    expect((await api('GET', '/contacts', { token: agent.token })).status).toBe(401);

    const admin = await login(co.admin.email, co.admin.password);
    expect(admin.company.id).toBe(co.companyId);
    const loginBody = await api('POST', '/auth/login', {
      body: { email: co.admin.email, password: co.admin.password },
    });
    expect(loginBody.body.company.restricted).toBe(true);
    for (const path of ['/contacts', '/whatsapp', '/queue', '/users', '/tickets?status=open']) {
      const res = await api('GET', path, { token: admin.token });
      expect(res.status, path).toBe(402);
      expect(res.body.error, path).toBe('ERR_SUBSCRIPTION_EXPIRED');
    }
    expect((await api('GET', '/auth/me', { token: admin.token })).status).toBe(200);
    const info = await api('GET', '/subscription', { token: admin.token });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ expired: true, trial: true, trialDaysLeft: 0, plan: { id: plan.id } });

    // the timer twice: one invoice for the period, never two
    await runTimer('invoices');
    await runTimer('invoices');
    const invoices = await api('GET', '/invoices/all', { token: admin.token });
    expect(invoices.status).toBe(200);
    expect(invoices.body.invoices).toHaveLength(1);
    const invoice = invoices.body.invoices[0];
    expect(invoice).toMatchObject({ value: 49.9, status: 'open', displayStatus: 'expired', dueDate: yesterday });
    expect(invoice.detail).toContain(plan.name);

    const watcher = await realtimeClient(admin.token);
    const other = await newCompany('bill1-other');
    const otherWatcher = await realtimeClient(other.adminToken);

    const pay = await api('POST', '/subscription', {
      token: admin.token,
      body: {
        invoiceId: invoice.id,
        firstName: 'Ana',
        lastName: 'Lima',
        city: 'Recife',
        zipcode: '50000-000',
        country: 'BR',
        price: 1,
      },
    });
    expect(pay.status, JSON.stringify(pay.body)).toBe(201);
    expect(pay.body.valor.original).toBe('49.90'); // the invoice's value, not the browser's price
    expect(isValidPixPayload(pay.body.qrcode.qrcode)).toBe(true);
    expect(parseTlv(pay.body.qrcode.qrcode).get('54')).toBe('49.90');
    // asking again returns the same pending charge
    const again = await api('POST', '/subscription', { token: admin.token, body: { invoiceId: invoice.id } });
    expect(again.body.paymentId).toBe(pay.body.paymentId);

    const confirmed = await confirmSandbox(pay.body.paymentId);
    expect(confirmed).toEqual({ status: 200, body: { outcome: 'confirmed' } });
    const event = await watcher.waitFor((e) => e.event === `company-${co.companyId}-payment`);
    expect(event.data.action).toBe('CONCLUIDA');
    const newDue = new Date(event.data.company.dueDate).getTime();
    // advanced one month from today (the due date had passed)
    expect(newDue).toBeGreaterThan(Date.now() + 27 * DAY);
    expect(newDue).toBeLessThan(Date.now() + 32 * DAY);

    // full access at once, with the same token
    expect((await api('GET', '/contacts', { token: admin.token })).status).toBe(200);
    expect((await api('POST', '/auth/login', { body: { email: agent.email, password: 'secret123' } })).status).toBe(
      200,
    );
    const paid = (await api('GET', `/invoices/${invoice.id}`, { token: admin.token })).body;
    expect(paid).toMatchObject({ status: 'paid', displayStatus: 'paid' });
    expect(
      (await api('POST', '/subscription', { token: admin.token, body: { invoiceId: invoice.id } })).body.error,
    ).toBe('ERR_INVOICE_ALREADY_PAID');

    // a second confirmation changes nothing
    expect((await confirmSandbox(pay.body.paymentId)).body.outcome).toBe('already-paid');
    const company = (await api('GET', `/companies/${co.companyId}`, { token: sup })).body;
    expect(new Date(company.dueDate).getTime()).toBe(newDue);
    expect(company).toMatchObject({ billingName: 'Ana Lima', city: 'Recife', expired: false });

    // the other company heard nothing
    await new Promise((r) => setTimeout(r, 200));
    expect(otherWatcher.events.some((e) => e.event.endsWith('-payment'))).toBe(false);
    const sub = (await api('GET', '/subscription', { token: admin.token })).body;
    expect(sub).toMatchObject({ expired: false, trial: false, trialDaysLeft: null });
    watcher.close();
    otherWatcher.close();
  });

  it('the timer issues an invoice only within the lead days before the due date; paying early advances from the due date', async () => {
    const sup = await superToken();
    const co = await newCompany('bill2');
    const plan = await ownPlan(sup, { value: 100 });
    const far = new Date(Date.now() + 40 * DAY).toISOString();
    await setCompany(sup, co.companyId, { planId: plan.id, dueDate: far, recurrence: 'TRIMESTRAL' });
    await runTimer('invoices');
    expect((await api('GET', '/invoices/all', { token: co.adminToken })).body.invoices).toEqual([]);

    const soon = new Date(Date.now() + 3 * DAY).toISOString();
    await setCompany(sup, co.companyId, { dueDate: soon });
    await runTimer('invoices');
    const list = (await api('GET', '/invoices/all', { token: co.adminToken })).body;
    expect(list.invoices).toHaveLength(1);
    // a quarterly company pays three months of the plan's monthly price
    expect(list.invoices[0]).toMatchObject({ displayStatus: 'open', value: 300 });

    // without an invoiceId the open invoice is charged
    const pay = await api('POST', '/subscription', { token: co.adminToken, body: {} });
    expect(pay.body.invoiceId).toBe(list.invoices[0].id);
    await confirmSandbox(pay.body.paymentId);
    const after = (await api('GET', `/companies/${co.companyId}`, { token: sup })).body;
    // paid before its due date: the next period starts at that due date (the clamping to a month's
    // end is the date module's, tested over the hard days in shared/dates.test.ts)
    expect(after.dueDate).toBe(advanceDueDate(soon, 'TRIMESTRAL'));
  });

  it('invoices and payments of another company are unreachable', async () => {
    const sup = await superToken();
    const a = await newCompany('bill3a');
    const b = await newCompany('bill3b');
    await setCompany(sup, b.companyId, { dueDate: new Date(Date.now() + 60 * DAY).toISOString() });
    // two periods of A: invoices 1 and 2; B has none
    await setCompany(sup, a.companyId, { dueDate: new Date(Date.now() + DAY).toISOString() });
    await runTimer('invoices');
    await setCompany(sup, a.companyId, { dueDate: new Date(Date.now() + 2 * DAY).toISOString() });
    await runTimer('invoices');
    const mine = (await api('GET', '/invoices/all', { token: a.adminToken })).body.invoices;
    expect(mine.map((i: any) => i.id)).toEqual([2, 1]);
    expect((await api('GET', '/invoices/all', { token: b.adminToken })).body.invoices).toEqual([]);
    for (const id of [1, 2]) {
      expect((await api('GET', `/invoices/${id}`, { token: b.adminToken })).status).toBe(404);
      const foreign = await api('POST', '/subscription', { token: b.adminToken, body: { invoiceId: id } });
      expect(foreign.status).toBe(404);
    }
    // A's sandbox payment id cannot be confirmed as anything of B's, and B's list stays empty
    const pay = await api('POST', '/subscription', { token: a.adminToken, body: { invoiceId: 1 } });
    expect(pay.status).toBe(201);
    expect((await api('GET', '/invoices/all', { token: b.adminToken })).body.invoices).toEqual([]);
    // an attendant cannot open the finance routes
    const agent = await createUser(a);
    expect((await api('GET', '/invoices/all', { token: agent.token })).body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('POST', '/subscription', { token: agent.token, body: {} })).status).toBe(403);
  });

  it('expired companies have their WhatsApp sessions paused by the timer, and resumed on payment', async () => {
    const sup = await superToken();
    const co = await newCompany('bill4');
    await setCompany(sup, co.companyId, { dueDate: new Date(Date.now() - DAY).toISOString() });
    await runTimer('invoices');
    expect((await table().get(`C#${co.companyId}`, 'COMPANY'))?.pausedAt).toEqual(expect.any(String));
    const inv = (await api('GET', '/invoices/all', { token: co.adminToken })).body.invoices[0];
    const pay = await api('POST', '/subscription', { token: co.adminToken, body: { invoiceId: inv.id } });
    await confirmSandbox(pay.body.paymentId);
    await queuesIdle();
    expect((await table().get(`C#${co.companyId}`, 'COMPANY'))?.pausedAt).toBeUndefined();
  });

  // Last in this file: it switches the platform to Asaas for a moment, and back.
  it('Asaas: the charge goes through its API with the key; the webhook needs its token, and a second delivery changes nothing', async () => {
    const sup = await superToken();
    const co = await newCompany('bill5');
    await setCompany(sup, co.companyId, {
      dueDate: new Date(Date.now() + 2 * DAY).toISOString(),
      document: '11144477735',
    });
    await runTimer('invoices');
    const inv = (await api('GET', '/invoices/all', { token: co.adminToken })).body.invoices[0];
    const key = `$aact_test_${Date.now()}`;
    const token = `whk-${Date.now()}`;
    const supRt = await realtimeClient(sup);
    try {
      expect((await api('PUT', '/settings/asaas', { token: sup, body: { value: key } })).status).toBe(200);
      // the platform's key: announced to the super user and listed for them, masked (never for companies: below)
      const masked = `••••${key.slice(-4)}`;
      await supRt.waitFor((e) => e.event.endsWith('-setting') && e.data.setting.value === masked);
      expect((await api('GET', '/settings', { token: sup })).body).toContainEqual({ key: 'asaas', value: masked });
      expect((await api('PUT', '/settings/asaasWebhookToken', { token: sup, body: { value: token } })).status).toBe(
        200,
      );
      const pay = await api('POST', '/subscription', { token: co.adminToken, body: { invoiceId: inv.id } });
      expect(pay.status, JSON.stringify(pay.body)).toBe(201);
      expect(pay.body.provider).toBe('asaas');
      expect(isValidPixPayload(pay.body.qrcode.qrcode)).toBe(true);
      const calls: any[] = await (await fetch(`${baseUrl()}/@asaas/_requests`)).json();
      const mine = calls.filter((c) => c.apiKey === key);
      expect(mine.map((c) => `${c.method} ${c.path.replace(/pay_[^/]+/, 'ID')}`)).toEqual([
        'POST /v3/customers',
        'POST /v3/payments',
        'GET /v3/payments/ID/pixQrCode',
      ]);
      expect(mine[0].body).toMatchObject({ cpfCnpj: '11144477735' });
      expect(mine[1].body).toMatchObject({
        billingType: 'PIX',
        value: inv.value,
        externalReference: pay.body.paymentId,
      });
      const asaasId = mine[2].path.split('/')[3];

      const forged = await (
        await fetch(`${baseUrl()}/@asaas/_pay/${asaasId}`, {
          method: 'POST',
          body: JSON.stringify({ webhookToken: 'wrong' }),
        })
      ).json();
      expect(forged).toEqual({ status: 401, body: { error: 'ERR_INVALID_WEBHOOK_TOKEN' } });
      expect((await api('GET', `/invoices/${inv.id}`, { token: co.adminToken })).body.status).toBe('open');

      const delivered = async () =>
        (
          await fetch(`${baseUrl()}/@asaas/_pay/${asaasId}`, {
            method: 'POST',
            body: JSON.stringify({ webhookToken: token }),
          })
        ).json();
      expect(await delivered()).toEqual({ status: 200, body: { received: true, outcome: 'confirmed' } });
      const due1 = (await api('GET', `/companies/${co.companyId}`, { token: sup })).body.dueDate;
      expect(await delivered()).toEqual({ status: 200, body: { received: true, outcome: 'already-paid' } });
      expect((await api('GET', `/companies/${co.companyId}`, { token: sup })).body.dueDate).toBe(due1);
      expect((await api('GET', `/invoices/${inv.id}`, { token: co.adminToken })).body.status).toBe('paid');
      // a company admin never reads the key
      const settings = (await api('GET', '/settings', { token: co.adminToken })).body;
      expect(settings.some((s: any) => s.key === 'asaas' || s.key === 'asaasWebhookToken')).toBe(false);

      // Asaas refusing what we send (here: a key it does not accept) is the admin's to fix: 422, not a 502
      expect((await api('PUT', '/settings/asaas', { token: sup, body: { value: 'not-a-key' } })).status).toBe(200);
      const other = await newCompany('bill5b');
      await setCompany(sup, other.companyId, { dueDate: new Date(Date.now() + 2 * DAY).toISOString() });
      await runTimer('invoices');
      const refused = await api('POST', '/subscription', { token: other.adminToken, body: {} });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body).toMatchObject({ error: 'ERR_PAYMENT_REFUSED', details: { status: 401 } });
    } finally {
      supRt.close();
      await api('PUT', '/settings/asaas', { token: sup, body: { value: '' } });
    }
  });
});
