import { AsyncLocalStorage } from 'node:async_hooks';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { config } from '../config';
import { log } from '../log';

/** A third party's failure; `retryable` for timeouts, network errors, 408, 429 and 5xx. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const budget = new AsyncLocalStorage<{ until: number }>();
/** An attempt is not started with less time than this left in the budget. */
const MIN_ATTEMPT_MS = 1000;

/**
 * Every provider call made inside `fn` shares one time budget (AI_BUDGET_MS): a transcription and a
 * chat answer, each with its retries, still end well inside the inbound consumer's time limit, so a
 * slow provider hands the ticket to people instead of timing the consumer out (and retrying the
 * whole message).
 */
export const withProviderBudget = <T>(fn: () => Promise<T>, ms = config().aiBudgetMs) =>
  budget.run({ until: Date.now() + ms }, fn);

/**
 * Runs one provider call with a timeout per attempt and retries with exponential backoff
 * (AI_TIMEOUT_MS, AI_RETRIES, AI_RETRY_BASE_MS), within the current budget (withProviderBudget).
 * The last error is thrown: callers hand the ticket to humans, never swallow it.
 */
export async function callProvider<T>(provider: string, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { aiTimeoutMs, aiRetries, aiRetryBaseMs } = config();
  const until = budget.getStore()?.until ?? Number.POSITIVE_INFINITY;
  let last: ProviderError | undefined;
  for (let n = 0; n <= aiRetries; n++) {
    const wait = n > 0 ? aiRetryBaseMs * 2 ** (n - 1) : 0;
    if (until - Date.now() - wait < MIN_ATTEMPT_MS) {
      last ??= new ProviderError('time budget spent', false);
      break;
    }
    if (wait) await sleep(wait);
    try {
      return await attempt(AbortSignal.timeout(Math.min(aiTimeoutMs, until - Date.now())));
    } catch (err) {
      last = asProviderError(err);
      log.warn('provider call failed', { provider, attempt: n + 1, status: last.status, error: last.message });
      if (!last.retryable) break;
    }
  }
  throw last!;
}

function asProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as Error;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return new ProviderError('timeout', true);
  return new ProviderError(e?.message ?? String(err), true);
}

/**
 * Addresses a company-supplied URL may not reach (SSRF): loopback, private, link-local (cloud
 * metadata), carrier-grade NAT, unique-local, multicast and unspecified, in IPv4 and IPv6 (IPv4-mapped
 * included).
 */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const v6 = address.toLowerCase();
  return (
    v6 === '::' ||
    v6 === '::1' ||
    v6.startsWith('fc') ||
    v6.startsWith('fd') ||
    v6.startsWith('fe8') ||
    v6.startsWith('fe9') ||
    v6.startsWith('fea') ||
    v6.startsWith('feb') ||
    v6.startsWith('ff')
  );
}

/**
 * A URL a company typed (webhook, n8n, Typebot, a prompt's base URL) must be http(s) and resolve only
 * to public addresses, so an integration cannot be pointed at the platform's own network. The local
 * runtime allows its fakes on this machine (PROVIDER_PRIVATE_URLS).
 */
export async function assertPublicUrl(url: string, lookup: typeof dnsLookup = dnsLookup): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProviderError('invalid URL', false);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ProviderError('URL not http(s)', false);
  if (config().providerPrivateUrls) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  if (!addresses.length || addresses.some(isPrivateAddress))
    throw new ProviderError('URL resolves to a private address', false);
}

/**
 * POSTs JSON (a string as it is, or multipart FormData with its own boundary) and reads JSON back;
 * a non-2xx answer is a ProviderError with its status.
 */
export async function postJson(
  url: string,
  body: unknown,
  signal: AbortSignal,
  headers: Record<string, string> = {},
): Promise<unknown> {
  await assertPublicUrl(url);
  const form = body instanceof FormData;
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...(form ? {} : { 'content-type': 'application/json' }), ...headers },
    body: form || typeof body === 'string' ? body : JSON.stringify(body),
    signal,
    // a redirect could lead past the address check
    redirect: 'error',
  });
  const text = await res.text();
  if (!res.ok) {
    const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
    throw new ProviderError(`HTTP ${res.status}`, retryable, res.status);
  }
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
