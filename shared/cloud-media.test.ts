import { describe, expect, it } from 'vitest';
import { cloudMediaType } from './cloud-media';

const MB = 1024 * 1024;

describe('a file through the Cloud API', () => {
  it("goes as what it is within Meta's types and sizes", () => {
    expect(cloudMediaType('image/jpeg', 5 * MB)).toBe('image');
    expect(cloudMediaType('image/png', 1000)).toBe('image');
    expect(cloudMediaType('video/mp4', 16 * MB)).toBe('video');
    expect(cloudMediaType('audio/ogg; codecs=opus', 2000)).toBe('audio');
    expect(cloudMediaType('audio/mpeg', 3 * MB)).toBe('audio');
    expect(cloudMediaType('application/pdf', 50 * MB)).toBe('document');
  });

  it('goes as a document when Meta would refuse it as what it is', () => {
    expect(cloudMediaType('image/jpeg', 5 * MB + 1)).toBe('document');
    expect(cloudMediaType('image/gif', 1000)).toBe('document');
    expect(cloudMediaType('image/webp', 1000)).toBe('document');
    expect(cloudMediaType('video/mp4', 16 * MB + 1)).toBe('document');
    expect(cloudMediaType('video/webm', 1000)).toBe('document');
    expect(cloudMediaType('audio/wav', 1000)).toBe('document');
  });
});
