import { describe, expect, it } from 'vitest';
import { acceptUpload, inboundMediaType } from './upload-policy';

/** Types are looked up by the name a sender claims: a built-in property name is no type. */
describe('upload policy lookups by claimed type', () => {
  const unknownBytes = new Uint8Array([0x01, 0x00, 0x03, 0x00, 0x05, 0x00, 0x07, 0x00]);

  it('an inbound file claiming a built-in property name as its type is stored as octet-stream', () => {
    for (const claimed of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(inboundMediaType(claimed, unknownBytes)).toBe('application/octet-stream');
  });

  it('an upload claiming a built-in property name as its type is refused', () => {
    for (const mimetype of ['constructor', '__proto__', 'toString', 'valueOf'])
      expect(() => acceptUpload({ fileName: 'a.bin', mimetype, size: 10 })).toThrow(
        expect.objectContaining({ code: 'ERR_UPLOAD_TYPE_NOT_ALLOWED' }),
      );
  });
});

describe('Markdown documents (the knowledge base, issue 39)', () => {
  const md = new TextEncoder().encode('# Trocas\n\nAté 30 dias.');

  it('a .md file is a document stored as text/markdown, by its type, its alias or its name', () => {
    for (const mimetype of ['text/markdown', 'text/x-markdown', '', 'application/octet-stream'])
      expect(acceptUpload({ fileName: 'faq.md', mimetype, size: md.length, head: md })).toMatchObject({
        mimetype: 'text/markdown',
        kind: 'document',
      });
  });

  it('markup or binary bytes under a Markdown name are refused', () => {
    for (const head of [new TextEncoder().encode('<script>x</script>'), new Uint8Array([0x4d, 0x5a, 0, 1])])
      expect(() => acceptUpload({ fileName: 'faq.md', mimetype: 'text/markdown', size: 10, head })).toThrow(
        expect.objectContaining({ code: 'ERR_UPLOAD_TYPE_NOT_ALLOWED' }),
      );
  });
});
