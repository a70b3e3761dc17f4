/**
 * A Web Push message as the server sends it (issue 25): JSON `{ title, body, url, tag? }`. A browser
 * must show a notification for every push, so a malformed one still shows something.
 */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag?: string;
}

const FALLBACK_TITLE = 'Inbox';

export function parsePush(text: string | undefined): PushPayload {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text ?? '');
    if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
  } catch {
    return { title: FALLBACK_TITLE, body: text ?? '', url: '/' };
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    title: str(data.title) || FALLBACK_TITLE,
    body: str(data.body) ?? '',
    url: str(data.url) ?? '/',
    tag: str(data.tag) || undefined,
  };
}

/** `url` resolved against the app's origin; anything pointing elsewhere opens the app's home. */
export function safeUrl(url: unknown, origin: string): string {
  try {
    const resolved = new URL(typeof url === 'string' ? url : '/', origin);
    if (resolved.origin === origin) return resolved.href;
  } catch {
    // not a URL at all
  }
  return new URL('/', origin).href;
}
