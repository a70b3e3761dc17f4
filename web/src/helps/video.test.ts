import { describe, it, expect } from 'vitest';
import { embedUrl, thumbnailUrl, youtubeId } from './video';

describe('help videos', () => {
  it('reads the video code from a bare code or any YouTube link', () => {
    for (const video of [
      'dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=4',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://m.youtube.com/shorts/dQw4w9WgXcQ',
    ])
      expect(youtubeId(video), video).toBe('dQw4w9WgXcQ');
  });

  it('anything else has no thumbnail', () => {
    for (const video of ['', 'not a video', 'https://example.com/watch?v=dQw4w9WgXcQ', 'https://youtu.be/short'])
      expect(youtubeId(video), video).toBeNull();
  });

  it('derives the thumbnail and the player address', () => {
    expect(thumbnailUrl('dQw4w9WgXcQ')).toBe('https://img.youtube.com/vi/dQw4w9WgXcQ/0.jpg');
    expect(embedUrl('dQw4w9WgXcQ')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1');
  });
});
