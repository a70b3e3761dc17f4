/**
 * A location message's body comes from WhatsApp and can be rewritten by the contact, so its link
 * and thumbnail are checked before they become an `href` or a `src`: a maps link only to Google
 * Maps over https, a thumbnail only as an inline image or over https. Anything else is shown as text.
 */
const MAPS_HOSTS = new Set(['maps.google.com', 'www.google.com', 'google.com', 'maps.app.goo.gl']);

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

export function safeMapsLink(link: string | null | undefined): string | undefined {
  const url = link ? parseUrl(link.trim()) : undefined;
  if (url?.protocol !== 'https:' || url.username || url.password || !MAPS_HOSTS.has(url.hostname)) return undefined;
  // www.google.com and google.com serve much more than maps
  if (url.hostname.endsWith('google.com') && url.hostname !== 'maps.google.com' && !url.pathname.startsWith('/maps'))
    return undefined;
  return url.href;
}

export function safeThumbnail(src: string | null | undefined): string | undefined {
  const value = src?.trim();
  if (!value) return undefined;
  if (/^data:image\/(jpeg|png|gif|webp);base64,[A-Za-z0-9+/]+=*$/.test(value)) return value;
  const url = parseUrl(value);
  return url?.protocol === 'https:' && !url.username && !url.password ? url.href : undefined;
}
