/** Runtime settings served by the host as /config.json (never baked into the build). */
export interface RuntimeConfig {
  apiUrl: string;
  wsUrl: string;
  version?: string;
}

let current: RuntimeConfig = { apiUrl: '/api', wsUrl: '/ws' };

export async function loadConfig(): Promise<RuntimeConfig> {
  try {
    const res = await fetch('/config.json', { cache: 'no-store' });
    if (res.ok) current = { ...current, ...(await res.json()) };
  } catch {
    // Keep the same-origin defaults when the host serves no config.
  }
  return current;
}

export const config = () => current;

/** `ws:`/`wss:` URL by page protocol for a same-origin path, or the absolute URL as given. */
export function wsUrl(path: string, loc: { protocol: string; host: string } = window.location): string {
  if (/^wss?:\/\//.test(path)) return path;
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}${path.startsWith('/') ? path : `/${path}`}`;
}
