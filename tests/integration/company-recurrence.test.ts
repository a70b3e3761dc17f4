import { describe, expect, it } from 'vitest';
import { RECURRENCE_MONTHS } from '../../shared/constants';
import { advanceDueDate } from '../../shared/schemas/billing';
import { RECURRENCE_OPTIONS } from '../../web/src/settings/company-form';
import { ADMIN, api, login, runTimer, usesTimers } from './helpers';

// the invoices timer bills every company: no other file's tick may run meanwhile
usesTimers('invoices');

const DAY = 24 * 3600 * 1000;
const uid = () => Math.random().toString(36).slice(2, 8);
const superToken = async () => (await login(ADMIN.email, ADMIN.password)).token;

describe('company recurrences: the form offers what the server accepts and bills (management.md 4, 9)', () => {
  it('each recurrence the form offers is accepted, and its invoice covers and charges that many months', async () => {
    const sup = await superToken();
    const monthly = (await api('GET', '/plans/1', { token: sup })).body.value as number;
    expect(monthly).toBeGreaterThan(0);
    // within the invoice lead days, so the timer issues each company's invoice now
    const due = new Date(Date.now() + 3 * DAY).toISOString();
    const created = [];
    for (const recurrence of RECURRENCE_OPTIONS) {
      const email = `rec-${uid()}@test.dev`;
      const res = await api('POST', '/companies', {
        token: sup,
        body: { name: `Rec ${recurrence} ${uid()}`, email, planId: 1, dueDate: due, recurrence, password: 'secret123' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.recurrence).toBe(recurrence);
      created.push({ recurrence, email });
    }
    await runTimer('invoices');
    for (const { recurrence, email } of created) {
      const admin = await login(email, 'secret123');
      const { invoices } = (await api('GET', '/invoices/all', { token: admin.token })).body;
      expect(invoices, recurrence).toHaveLength(1);
      expect(invoices[0]).toMatchObject({
        periodStart: due,
        periodEnd: advanceDueDate(due, recurrence),
        value: Math.round(monthly * RECURRENCE_MONTHS[recurrence] * 100) / 100,
      });
    }
  });

  it('a recurrence the form does not offer is 400 ERR_VALIDATION on create and on edit, and nothing changes', async () => {
    const sup = await superToken();
    const name = `Rec refused ${uid()}`;
    for (const recurrence of ['QUINZENAL', 'WEEKLY', 'mensal', '']) {
      const res = await api('POST', '/companies', { token: sup, body: { name, planId: 1, recurrence } });
      expect([recurrence, res.status, res.body.error]).toEqual([recurrence, 400, 'ERR_VALIDATION']);
      expect(res.body.details).toEqual([{ path: ['recurrence'], message: 'invalid' }]);
    }
    const found = await api('GET', `/companies?searchParam=${encodeURIComponent(name.toLowerCase())}`, { token: sup });
    expect(found.body.companies).toEqual([]);

    const company = (await api('POST', '/companies', { token: sup, body: { name, planId: 1 } })).body;
    expect(company.recurrence).toBe('MENSAL');
    const edit = await api('PUT', `/companies/${company.id}`, { token: sup, body: { recurrence: 'QUINZENAL' } });
    expect([edit.status, edit.body.error]).toEqual([400, 'ERR_VALIDATION']);
    expect((await api('GET', `/companies/${company.id}`, { token: sup })).body.recurrence).toBe('MENSAL');
  });
});
