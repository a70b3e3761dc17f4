import { describe, expect, test } from 'vitest';
import { mediaFileName, mediaUploadBody } from './media';

describe('quick message media (management.md section 9)', () => {
  test('spaces in the file name become underscores', () => {
    expect(mediaFileName('price list  2024.pdf')).toBe('price_list__2024.pdf');
    expect(mediaFileName('photo.png')).toBe('photo.png');
  });
  test('the upload carries the renamed file and typeArch', () => {
    const form = mediaUploadBody(new File(['x'], 'my photo.png', { type: 'image/png' }));
    expect((form.get('file') as File).name).toBe('my_photo.png');
    expect(form.get('typeArch')).toBe('quickMessage');
  });
});
