import { api, baseUrl, queuesIdle, sleep } from './helpers';

/** The simulator's local-only endpoints (a fake phone per connection), through the gateway. */
export async function sim<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/@simulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`simulator ${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed as T;
}

export const phone = (companyId: number, whatsappId: number) => {
  const base = `/sessions/${companyId}/${whatsappId}`;
  return {
    state: () => sim('GET', base),
    scan: (number = '5511900000000') => sim('POST', `${base}/scan`, { number }),
    /** a customer writes to the company */
    send: (message: { from: string; body?: string; [k: string]: unknown }) => sim<{ wid: string; chatJid: string }>('POST', `${base}/messages`, message),
    ack: (wid: string, ack?: number) => sim<{ ack: number }>('POST', `${base}/ack`, { wid, ack }),
    call: (from: string) => sim('POST', `${base}/call`, { from }),
    drop: (code: number) => sim('POST', `${base}/drop`, { code }),
    outbound: async () => (await sim<{ outbound: any[] }>('GET', base)).outbound,
  };
};

/** Waits until `check` returns a truthy value (queues drained between tries). */
export async function eventually<T>(check: () => Promise<T | undefined | false | null>, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await queuesIdle();
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(50);
  }
}

/** Creates a connection and pairs its simulated phone: the connection ends CONNECTED. */
export async function connectedWhatsapp(token: string, companyId: number, body: Record<string, unknown> = {}) {
  const created = await api('POST', '/whatsapp', { token, body: { name: 'Main line', ...body } });
  if (created.status !== 201) throw new Error(`create connection: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as number;
  await phone(companyId, id).scan(`55119${String(companyId).padStart(4, '0')}${String(id).padStart(4, '0')}`);
  await eventually(async () => (await api('GET', `/whatsapp/${id}`, { token })).body.status === 'CONNECTED');
  return created.body as { id: number; token: string };
}
