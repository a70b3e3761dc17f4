/**
 * A help's `video` is a YouTube video code (management.md 3) or, as super users often paste, a
 * YouTube link. Both give the same thumbnail and embed player address.
 */
const CODE = /^[\w-]{11}$/;

export function youtubeId(video: string): string | null {
  const text = video.trim();
  if (CODE.test(text)) return text;
  try {
    const url = new URL(text);
    const host = url.hostname.replace(/^www\.|^m\./, '');
    const id =
      host === 'youtu.be'
        ? url.pathname.slice(1)
        : host.endsWith('youtube.com') || host.endsWith('youtube-nocookie.com')
          ? (url.searchParams.get('v') ?? url.pathname.match(/^\/(?:embed|shorts|v|live)\/([^/]+)/)?.[1] ?? '')
          : '';
    return CODE.test(id) ? id : null;
  } catch {
    return null;
  }
}

export const thumbnailUrl = (id: string) => `https://img.youtube.com/vi/${id}/0.jpg`;
export const embedUrl = (id: string) => `https://www.youtube.com/embed/${id}?autoplay=1`;
