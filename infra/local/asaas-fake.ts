import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { pixPayload } from '../../functions/lib/billing/pix';

/**
 * A fake Asaas (local stack only, at `/@asaas/v3`; ASAAS_URL points here): customers, PIX charges
 * and their QR codes, with Asaas's `access_token` header required (keys look like `$aact_...`).
 * Test hooks: `POST /@asaas/_pay/{paymentId}` `{ webhookToken }` marks a charge received and
 * delivers Asaas's webhook to the stack; `GET /@asaas/_requests` lists the calls it answered.
 */
export function asaasFake(webhookUrl: string) {
  const customers = new Map<string, Record<string, unknown>>();
  const payments = new Map<string, Record<string, unknown>>();
  const requests: { method: string; path: string; apiKey?: string; body?: unknown }[] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, description: string) =>
    send(res, status, { errors: [{ code: 'invalid', description }] });

  return async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname.slice('/@asaas'.length);
    const body = raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : undefined;
    if (path === '/_requests') return send(res, 200, requests);
    const paid = /^\/_pay\/([^/]+)$/.exec(path);
    if (paid && req.method === 'POST') {
      const payment = payments.get(decodeURIComponent(paid[1]!));
      if (!payment) return refuse(res, 404, 'payment not found');
      payment.status = 'RECEIVED';
      const delivered = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'asaas-access-token': String(body?.webhookToken ?? '') },
        body: JSON.stringify({ event: 'PAYMENT_RECEIVED', payment }),
      });
      return send(res, 200, { status: delivered.status, body: await delivered.json().catch(() => null) });
    }

    const apiKey = req.headers.access_token as string | undefined;
    requests.push({ method: req.method ?? 'GET', path, apiKey, body });
    if (!apiKey?.startsWith('$aact_')) return refuse(res, 401, 'invalid access_token');
    if (req.method === 'POST' && path === '/v3/customers') {
      if (!body?.name) return refuse(res, 400, 'name is required');
      const id = `cus_${randomUUID().slice(0, 12)}`;
      customers.set(id, { id, ...body });
      return send(res, 200, customers.get(id));
    }
    if (req.method === 'POST' && path === '/v3/payments') {
      if (!body?.customer || !customers.has(String(body.customer))) return refuse(res, 400, 'customer not found');
      if (body.billingType !== 'PIX' || !(Number(body.value) > 0)) return refuse(res, 400, 'invalid charge');
      const id = `pay_${randomUUID().slice(0, 12)}`;
      payments.set(id, { id, object: 'payment', status: 'PENDING', ...body });
      return send(res, 200, payments.get(id));
    }
    const qr = /^\/v3\/payments\/([^/]+)\/pixQrCode$/.exec(path);
    if (req.method === 'GET' && qr) {
      const payment = payments.get(decodeURIComponent(qr[1]!));
      if (!payment) return refuse(res, 404, 'payment not found');
      const payload = pixPayload({
        key: 'asaas-fake@inbox.local',
        amount: Number(payment.value),
        merchantName: 'Asaas Fake',
        merchantCity: 'Joinville',
        txid: String(payment.id),
      });
      const expirationDate = new Date(Date.now() + 24 * 3600 * 1000).toISOString().replace('T', ' ').slice(0, 19);
      return send(res, 200, { encodedImage: 'iVBORw0KGgo=', payload, expirationDate });
    }
    return refuse(res, 404, `no route ${req.method} ${path}`);
  };
}
