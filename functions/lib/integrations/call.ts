import { AsyncLocalStorage } from 'node:async_hooks';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { text as readText } from 'node:stream/consumers';
import ipaddr from 'ipaddr.js';
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

/** IPv6 global unicast (2000::/3): every other block is special-purpose or unassigned. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The address as the URL parser writes a host: IPv4 as a dotted quad, IPv6 in hex only (ipaddr.js
 * would read the IPv4-compatible ::a.b.c.d as the mapped ::ffff:a.b.c.d). A zone id (fe80::1%eth0)
 * is no valid host, so such an address is refused.
 */
function canonical(address: string): string | undefined {
  try {
    return new URL(`http://${isIP(address) === 6 ? `[${address}]` : address}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

/**
 * Whether a company-supplied URL may reach this address (SSRF): only public unicast. Refused are
 * loopback, private, link-local (cloud metadata, IPv4 and fd00:ec2::254), carrier-grade NAT,
 * reserved and benchmarking blocks, broadcast, multicast and unspecified, in any IPv4 notation
 * (octal, hex, short, integer). An IPv6 address that maps (::ffff:a.b.c.d) or translates (NAT64)
 * an IPv4 one is judged by that IPv4 address; IPv4-compatible (::a.b.c.d), 6to4 and Teredo
 * addresses are refused whole, since they tunnel to an address this check cannot see.
 */
export function isPublicAddress(address: string): boolean {
  const spelled = canonical(address);
  if (!spelled || !ipaddr.isValid(spelled)) return false;
  const ip = ipaddr.parse(spelled);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
  if (v6.match(NAT64)) return isPublicAddress(ipaddr.fromByteArray(v6.toByteArray().slice(12)).toString());
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST);
}

/** Name resolution, injectable for tests: every address the name answers. */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;
const resolveByDns: Resolve = (hostname) => dnsLookup(hostname, { all: true });

/** A URL whose addresses were resolved once and checked: the only addresses its request may use. */
export interface CheckedUrl {
  url: URL;
  addresses: LookupAddress[];
}

/**
 * A URL a company typed (webhook, n8n, Typebot) must be http(s) and resolve only to public
 * addresses, so an integration cannot be pointed at the platform's own network. The name is
 * resolved once and every answer checked (one private answer refuses the URL); guardedFetch then
 * connects to these addresses only, so a name that answers differently the next time (DNS
 * rebinding) cannot move the connection. The local runtime allows its fakes on this machine
 * (PROVIDER_PRIVATE_URLS): the addresses are still pinned, only not checked.
 */
export async function resolvePublicUrl(url: string, resolve: Resolve = resolveByDns): Promise<CheckedUrl> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProviderError('invalid URL', false);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ProviderError('URL not http(s)', false);
  if (parsed.username || parsed.password) throw new ProviderError('URL with credentials', false);
  // the URL parser has already turned every IPv4 notation (0x7f.1, 2130706433 ...) into a dotted quad
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let answers: LookupAddress[];
  if (isIP(host)) answers = [{ address: host, family: isIP(host) }];
  else {
    try {
      answers = await resolve(host);
    } catch (err) {
      throw new ProviderError(`cannot resolve the URL's host (${(err as Error).message})`, true);
    }
  }
  const addresses = answers.map((a) => ({ address: a.address, family: isIP(a.address) }));
  if (!addresses.length || addresses.some((a) => !a.family))
    throw new ProviderError('URL resolves to no address', false);
  if (!config().providerPrivateUrls && !addresses.every((a) => isPublicAddress(a.address)))
    throw new ProviderError('URL resolves to a private address', false);
  return { url: parsed, addresses };
}

/**
 * The socket's name lookup answered from the checked addresses, never from DNS again. Node asks
 * for all of them when it tries IPv6 and IPv4 in turn (autoSelectFamily), else for one.
 */
function pinnedLookup(addresses: LookupAddress[]) {
  return (
    _hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family ? addresses.filter((a) => a.family === family) : addresses;
    if (!usable.length) {
      const err: NodeJS.ErrnoException = new Error(`no checked IPv${family} address`);
      err.code = 'ENOTFOUND';
      return callback(err, '');
    }
    if (options.all) return callback(null, usable);
    callback(null, usable[0]!.address, usable[0]!.family);
  };
}

export interface GuardedRequest {
  method: string;
  headers?: Record<string, string>;
  /** multipart FormData travels with its own boundary */
  body?: string | FormData;
  signal: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  body: string;
}

async function encodeBody(body: GuardedRequest['body']): Promise<{ bytes?: Buffer; type?: string }> {
  if (body === undefined) return {};
  if (typeof body === 'string') return { bytes: Buffer.from(body) };
  const encoded = new Response(body);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type') ?? undefined };
}

/**
 * The one way to call a URL a company typed: resolvePublicUrl, then the request over a connection
 * to a checked address, with the URL's own Host header and TLS server name (node:http(s) take both
 * from the URL; only the lookup is pinned). A fresh connection each time, so no pooled socket from
 * another check is reused. A redirect is refused (it could lead past the check).
 */
export async function guardedFetch(
  url: string,
  init: GuardedRequest,
  resolve: Resolve = resolveByDns,
): Promise<GuardedResponse> {
  const checked = await resolvePublicUrl(url, resolve);
  const { bytes, type } = await encodeBody(init.body);
  const headers = {
    ...(type ? { 'content-type': type } : {}),
    ...init.headers,
    ...(bytes ? { 'content-length': String(bytes.length) } : {}),
  };
  const client = checked.url.protocol === 'https:' ? https : http;
  const { status, body } = await new Promise<GuardedResponse>((done, fail) => {
    const req = client.request(
      checked.url,
      { method: init.method, headers, signal: init.signal, agent: false, lookup: pinnedLookup(checked.addresses) },
      (res) => {
        readText(res).then((text) => done({ status: res.statusCode ?? 0, body: text }), fail);
      },
    );
    req.on('error', fail);
    req.end(bytes);
  });
  if (status >= 300 && status < 400) throw new ProviderError(`redirect refused (HTTP ${status})`, false, status);
  return { status, body };
}

/**
 * POSTs JSON (a string as it is, or multipart FormData with its own boundary) through guardedFetch
 * and reads JSON back; a non-2xx answer is a ProviderError with its status.
 */
export async function postJson(
  url: string,
  body: unknown,
  signal: AbortSignal,
  headers: Record<string, string> = {},
  resolve: Resolve = resolveByDns,
): Promise<unknown> {
  const form = body instanceof FormData;
  const res = await guardedFetch(
    url,
    {
      method: 'POST',
      headers: { ...(form ? {} : { 'content-type': 'application/json' }), ...headers },
      body: form || typeof body === 'string' ? body : JSON.stringify(body),
      signal,
    },
    resolve,
  );
  if (res.status < 200 || res.status >= 300) {
    const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
    throw new ProviderError(`HTTP ${res.status}`, retryable, res.status);
  }
  if (!res.body.trim()) return undefined;
  try {
    return JSON.parse(res.body);
  } catch {
    return res.body;
  }
}
