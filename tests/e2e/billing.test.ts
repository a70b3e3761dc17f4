import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { addMonths } from '../../shared/dates';
import { answerLate, apiCall, baseUrl, eventually, launch, newCompany, newPage, shot, unique } from './browser';
import { usesTimers } from '../integration/helpers';

// The invoices timer bills every company due within the lead days (other files' companies get an
// invoice they never look at) and pauses the expired ones (only this file's). Run alone, this file
// held the other browser idle for its whole length and made the files after it wait (86 s of lock
// waits in one run); beside them it needs only the timer's lock, which no other browser file takes.
usesTimers('invoices');

/**
 * Running the platform from the browser (issue 10; management.md "Settings page", "Invoices and
 * checkout", 4 and 9): an expired company's admin signs in to a restricted session, pays an invoice
 * by PIX in the sandbox, sees the renewal toast and gets full access back; the super user sees the
 * new due date and runs companies, plans and helps. Screenshots: tests/e2e/screenshots/billing-*.png.
 */
let browser: Browser;
let superToken: string;
beforeAll(async () => {
  browser = await launch();
  const login = await apiCall('POST', '/auth/login', { body: { email: 'admin@admin.com', password: 'admin123' } });
  superToken = login.body.token;
});
afterAll(async () => {
  await browser?.close();
});

const DAY = 24 * 3600 * 1000;
const ddmmyyyy = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
};
const nav = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' });
const timer = (name: string) => fetch(`${baseUrl()}/@timers/${name}`, { method: 'POST' });

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

async function openCompaniesTab(page: Page, search: string) {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Empresas' }).click();
  await page.getByRole('searchbox', { name: 'Pesquisar empresas' }).fill(search);
  // The search has applied once the table holds that one company.
  await eventually(
    async () =>
      (await page.locator('tbody tr').count()) === 1 &&
      (await page.locator('tbody tr').filter({ hasText: search }).count()) === 1,
  );
  return page.getByRole('row').filter({ hasText: search });
}

describe('billing and platform administration', () => {
  test('a company past its due date: its admin signs in restricted, pays an invoice by PIX in the sandbox, sees the renewal toast and has full access again; the super user sees the new due date', async () => {
    const co = await newCompany('bill');
    const companyName = (await apiCall('GET', `/companies/${co.companyId}`, { token: superToken })).body.name;
    const attendant = { name: 'Atendente', email: `att-${unique()}@e2e.dev`, password: 'secret123', profile: 'user' };
    expect((await apiCall('POST', '/users', { token: co.token, body: attendant })).status).toBe(201);
    // Past due by 10 days (the super user's edit), then the invoices timer bills the period.
    const pastDue = new Date(Date.now() - 10 * DAY).toISOString();
    const edit = await apiCall('PUT', `/companies/${co.companyId}`, { token: superToken, body: { dueDate: pastDue } });
    expect(edit.status).toBe(200);
    await timer('invoices');

    const { context, page } = await newPage(browser);
    // Attendants of an expired company are still refused (attendance.md 4.1).
    await signIn(page, attendant.email, attendant.password);
    await page.getByText(`Sua assinatura expirou em ${ddmmyyyy(pastDue)}. Entre em contato com o suporte.`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');

    await signIn(page, co.email, co.password);
    await page.waitForURL('**/financeiro');
    await page.getByText('Sua assinatura venceu. Pague a fatura em aberto para voltar a usar o sistema.').waitFor();
    // Restricted: the menu lists only the invoices; any other page goes back to them.
    expect(await nav(page).getByRole('link').allTextContents()).toEqual(['Financeiro']);
    await page.goto('/tickets');
    await page.waitForURL('**/financeiro');
    await page.goto('/settings');
    await page.waitForURL('**/financeiro');
    await page.goto('/subscription');
    await page.getByText(`Sua licença venceu em ${ddmmyyyy(pastDue)}.`).waitFor();
    await shot(page, 'billing-subscription-expired');
    await page.getByRole('link', { name: 'Ver faturas' }).click();
    await page.waitForURL('**/financeiro');

    // The invoice of the unpaid period: expired, a red row, with a pay button.
    const row = page.locator('tr[data-status="expired"]').first();
    await row.waitFor();
    await row.getByText('Vencido').waitFor();
    const bg = await row.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(g + 40);
    expect(r).toBeGreaterThan(b + 40);
    await shot(page, 'billing-invoices-expired');
    await row.getByRole('button', { name: /^Pagar a fatura/ }).click();

    // Checkout: opens on step 1 (plan), the company's plan chosen; back to data validates section 5.
    const dialog = page.getByRole('dialog', { name: 'Checkout' });
    await dialog.getByText('Escolha o plano').waitFor();
    await dialog.getByRole('radio', { checked: true }).waitFor();
    await dialog.getByRole('button', { name: 'Voltar' }).click();
    await dialog.getByLabel(/^Nome completo/).waitFor();
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByText('Nome é obrigatório').waitFor();
    await dialog.getByText('Endereço é obrigatório').waitFor();
    await dialog.getByText('Cidade é obrigatória').waitFor();
    await dialog.getByText('CEP é obrigatório').waitFor();
    await shot(page, 'billing-checkout-data-errors');
    await dialog.getByLabel(/^Nome completo/).fill('Ana Souza');
    await dialog.getByLabel(/^Endereço/).fill('Rua das Flores, 10');
    await dialog.getByLabel(/^Cidade/).fill('Recife');
    await dialog.getByLabel(/^CEP/).fill('50000-000');
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByText('Escolha o plano').waitFor();
    await shot(page, 'billing-checkout-plan');
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByText('Resumo da assinatura').waitFor();
    await dialog.getByText('Ana Souza, Rua das Flores, 10, Recife, 50000-000, Brasil').waitFor();
    await shot(page, 'billing-checkout-review');

    const answer = page.waitForResponse(
      (r) => r.url().endsWith('/api/subscription') && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Pagar', exact: true }).click();
    const payment = await (await answer).json();
    expect((await answer).status()).toBe(201);
    // Step 3: the QR code of the PIX copy-and-paste payload, and the payload itself to copy.
    await dialog.getByRole('heading', { name: 'Pague com PIX' }).waitFor();
    await dialog.getByRole('img', { name: 'QR Code do PIX' }).waitFor();
    const copyPaste = await dialog.getByLabel('PIX copia e cola').inputValue();
    expect(copyPaste).toBe(payment.qrcode.qrcode);
    expect(copyPaste.startsWith('000201')).toBe(true);
    await dialog.getByRole('button', { name: 'Copiar código' }).waitFor();
    await shot(page, 'billing-checkout-qr');

    // The sandbox confirms the payment: the `payment` event brings the toast, then / after 4 s.
    const toast = page.getByText(/^Sua licença foi renovada até \d{2}\/\d{2}\/\d{4}!$/);
    const toastSeen = toast.waitFor({ timeout: 15_000 }).then(() => Date.now());
    const confirm = await fetch(`${baseUrl()}/@payments/${payment.paymentId}/confirm`, { method: 'POST' });
    expect(confirm.status).toBe(200);
    const toastAt = await toastSeen;
    const toastText = await toast.textContent();
    await shot(page, 'billing-renewed-toast');
    await page.waitForURL(`${baseUrl()}/`, { timeout: 10_000 });
    expect(Date.now() - toastAt).toBeGreaterThan(3_000);
    const company = (await apiCall('GET', `/companies/${co.companyId}`, { token: superToken })).body;
    expect(Date.parse(company.dueDate)).toBeGreaterThan(Date.now());
    expect(toastText).toBe(`Sua licença foi renovada até ${ddmmyyyy(company.dueDate)}!`);

    // Full access again: the whole menu, and other pages stay put.
    await nav(page).locator('a[href="/settings"]').waitFor();
    await nav(page).locator('a[href="/tickets"]').waitFor();
    await page.goto('/tickets');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/tickets');
    await page.goto('/financeiro');
    await page.locator('tr[data-status="paid"]').first().waitFor();
    expect(await page.locator('tr[data-status="expired"]').count()).toBe(0);
    await context.close();

    // The super user sees the new due date in the companies tab.
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin@admin.com', 'admin123');
    await admin.page.waitForURL('**/tickets');
    const companyRow = await openCompaniesTab(admin.page, companyName);
    await companyRow.getByText(ddmmyyyy(company.dueDate)).waitFor();
    await shot(admin.page, 'billing-companies-renewed');
    await admin.context.close();
  });

  test('the super user runs plans, helps and companies: row colours, "Expire" by the recurrence, edit and delete', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin@admin.com', 'admin123');
    await page.waitForURL('**/tickets');
    await page.goto('/settings');

    // Plans: every limit and flag.
    await page.getByRole('tab', { name: 'Planos' }).click();
    await page.getByRole('button', { name: 'Adicionar plano' }).click();
    const planName = `Plano ${unique()}`;
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Nome/).fill(planName);
    await dialog.getByLabel('Valor (R$)').fill('129,90');
    await dialog.getByLabel('Usuários').fill('7');
    await dialog.getByLabel('Conexões').fill('2');
    await dialog.getByLabel('Filas').fill('4');
    await dialog.getByLabel('Kanban').check();
    await dialog.getByLabel('API externa').check();
    await shot(page, 'billing-plan-modal');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Plano salvo com sucesso.').waitFor();
    const plans = await apiCall('GET', '/plans/all', { token: superToken });
    const saved = (Array.isArray(plans.body) ? plans.body : plans.body.plans).find(
      (p: { name: string }) => p.name === planName,
    );
    expect(saved).toMatchObject({
      users: 7,
      connections: 2,
      queues: 4,
      value: 129.9,
      useKanban: true,
      useExternalApi: true,
      useOpenAi: false,
    });
    await page.getByRole('row').filter({ hasText: planName }).getByText('R$ 129,90').waitFor();
    await shot(page, 'billing-plans');
    // The same name again is refused with the generic failure of section 8.
    await page.getByRole('button', { name: 'Adicionar plano' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Nome/).fill(planName);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText(/Não foi possível concluir a operação/).waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();

    // Helps: title, description, video.
    await page.getByRole('tab', { name: 'Ajuda' }).click();
    await page.getByRole('button', { name: 'Adicionar ajuda' }).click();
    dialog = page.getByRole('dialog');
    const helpTitle = `Como conectar ${unique()}`;
    await dialog.getByLabel(/^Título/).fill(helpTitle);
    await dialog.getByLabel(/^Vídeo/).fill('dQw4w9WgXcQ');
    await dialog.getByLabel(/^Descrição/).fill('Leia o QR Code com o celular.');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Ajuda salva com sucesso.').waitFor();
    await page.getByRole('row').filter({ hasText: helpTitle }).getByText('dQw4w9WgXcQ').waitFor();
    await shot(page, 'billing-helps');
    await page.getByRole('button', { name: `Excluir ${helpTitle}` }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Ajuda excluída.').waitFor();
    expect(await page.getByRole('row').filter({ hasText: helpTitle }).count()).toBe(0);

    // Companies: a company 2 days from its due date is an orange row; "Expire" moves it a month on.
    const co = await newCompany('ops');
    const name = (await apiCall('GET', `/companies/${co.companyId}`, { token: superToken })).body.name;
    const due = new Date(Date.now() + 2 * DAY).toISOString();
    await apiCall('PUT', `/companies/${co.companyId}`, { token: superToken, body: { dueDate: due } });
    let row = await openCompaniesTab(page, name);
    expect(await row.getAttribute('data-due')).toBe('orange');
    await shot(page, 'billing-companies');
    await row.getByRole('button', { name: `+ Vencimento: ${name}` }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Vencimento atualizado.').waitFor();
    const after = await apiCall('GET', `/companies/${co.companyId}`, { token: superToken });
    expect(after.body.dueDate).toBe(addMonths(due, 1));
    row = page.getByRole('row').filter({ hasText: name });
    await row.getByText(ddmmyyyy(after.body.dueDate)).waitFor();
    expect(await row.getAttribute('data-due')).toBe('none');

    // Edit: plan, recurrence and billing address; business hours in their own tab. The company
    // arrives late (as on a slow network): what is typed is never overwritten by its arrival.
    await answerLate(page, `/api/companies/${co.companyId}`);
    await row.getByRole('button', { name: `Editar ${name}` }).click();
    dialog = page.getByRole('dialog', { name: 'Editar empresa' });
    await dialog.getByLabel(/^Nome para cobrança/).fill('Ops Ltda');
    await dialog.getByRole('combobox', { name: 'Recorrência' }).click();
    await page.getByRole('option', { name: 'Trimestral' }).click();
    await dialog.getByRole('combobox', { name: /^Plano/ }).click();
    await page.getByRole('option', { name: planName }).click();
    await shot(page, 'billing-company-modal');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Empresa salva com sucesso.').waitFor();
    const edited = await apiCall('GET', `/companies/${co.companyId}`, { token: superToken });
    expect(edited.body).toMatchObject({ billingName: 'Ops Ltda', recurrence: 'TRIMESTRAL', planId: saved.id });
    await page.getByRole('row').filter({ hasText: name }).getByText(planName).waitFor();

    await page
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: `Editar ${name}` })
      .click();
    dialog = page.getByRole('dialog', { name: 'Editar empresa' });
    await dialog.getByRole('tab', { name: 'Horários de atendimento' }).click();
    await dialog.getByLabel('Fim (Sábado)').fill('1400');
    await shot(page, 'billing-company-hours');
    await dialog.getByRole('button', { name: 'Salvar horários' }).click();
    await page.getByText('Horários salvos com sucesso.').waitFor();
    const hours = await apiCall('GET', `/companies/${co.companyId}/schedules`, { token: superToken });
    expect(hours.body.schedules.find((d: { weekdayEn: string }) => d.weekdayEn === 'saturday').endTime).toBe('14:00');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();

    // Delete: gone from the list, and its admin can no longer sign in.
    await page
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: `Excluir ${name}` })
      .click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Empresa excluída. Os dados estão sendo apagados.').waitFor();
    // the toast and the list's removal render separately: wait for the row rather than count at once
    await page.getByRole('row').filter({ hasText: name }).waitFor({ state: 'detached' });
    await context.close();
  });

  test('a trial company: the expiry warning at sign-in (fewer than 5 days), the days left on /subscription, and no super tabs', async () => {
    const co = await newCompany('plain');
    const { context, page } = await newPage(browser);
    await signIn(page, co.email, co.password);
    await page.waitForURL('**/tickets');
    await page.getByText(/^Sua assinatura vence em [0-4] dias?\.$/).waitFor();
    await page.goto('/subscription');
    const days = (await apiCall('GET', '/subscription', { token: co.token })).body.trialDaysLeft;
    expect(days).toBeGreaterThan(0);
    await page.getByText(`Restam ${days} dias do seu período de teste.`).waitFor();
    await page.getByText('Nenhuma fatura em aberto.').waitFor();
    await shot(page, 'billing-subscription-trial');
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Opções' }).waitFor();
    for (const tab of ['Empresas', 'Planos', 'Ajuda'])
      expect(await page.getByRole('tab', { name: tab }).count()).toBe(0);
    await context.close();
  });
});
