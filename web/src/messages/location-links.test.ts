import { describe, expect, it } from 'vitest';
import { safeMapsLink, safeThumbnail } from './location-links';

describe('location links from a message body', () => {
  it('a Google Maps https link is kept', () => {
    const link = 'https://maps.google.com/maps?q=-23.5%2C-46.6&z=17';
    expect(safeMapsLink(link)).toBe(link);
    expect(safeMapsLink('https://www.google.com/maps/place/-23.5,-46.6')).toBe(
      'https://www.google.com/maps/place/-23.5,-46.6',
    );
    expect(safeMapsLink('https://maps.app.goo.gl/abc123')).toBe('https://maps.app.goo.gl/abc123');
  });

  it('any other scheme, host or Google path is refused (phishing, javascript:, look-alike hosts)', () => {
    for (const link of [
      'http://maps.google.com/maps?q=1,2',
      'javascript:alert(1)',
      'https://evil.example/maps?q=1,2',
      'https://maps.google.com.evil.example/maps',
      'https://maps.google.com@evil.example/',
      'https://user:pw@maps.google.com/maps',
      'https://www.google.com/url?q=https://evil.example',
      'data:text/html,<script>alert(1)</script>',
      'not a url',
      '',
      undefined,
    ])
      expect(safeMapsLink(link), String(link)).toBeUndefined();
  });

  it('a thumbnail is an inline image or an https URL, nothing else', () => {
    expect(safeThumbnail('data:image/jpeg;base64,/9j/4AAQSkZJRg==')).toBe('data:image/jpeg;base64,/9j/4AAQSkZJRg==');
    expect(safeThumbnail('https://pps.whatsapp.net/thumb.jpg')).toBe('https://pps.whatsapp.net/thumb.jpg');
    for (const src of [
      'http://tracker.example/pixel.gif',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:text/html;base64,PHNjcmlwdD4=',
      'javascript:alert(1)',
      '//tracker.example/p.gif',
      '',
      undefined,
    ])
      expect(safeThumbnail(src), String(src)).toBeUndefined();
  });
});
