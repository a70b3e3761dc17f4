import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_MAX_BODY } from '#shared/schemas/knowledge';
import { docxOf, pdfOf, zipWithout } from '../../../tests/documents';
import { documentText } from './extract';

const code = (code: string) => expect.objectContaining({ code });

describe('knowledge documents: text extraction', () => {
  it('a PDF gives its text, accents and brackets kept', async () => {
    const text = await documentText(
      'pdf',
      pdfOf(['Política de trocas: até 30 dias.', 'Frete (grátis) acima de R$ 200.']),
    );
    expect(text).toContain('Política de trocas: até 30 dias.');
    expect(text).toContain('Frete (grátis) acima de R$ 200.');
  });

  it('a DOCX gives its paragraphs, separated by a blank line', async () => {
    const text = await documentText(
      'docx',
      await docxOf(['Garantia de doze meses.', 'Assistência técnica em São Paulo.']),
    );
    expect(text).toBe('Garantia de doze meses.\n\nAssistência técnica em São Paulo.');
  });

  it('plain text and Markdown are kept as written; a BOM, CRLF and runs of blank lines are tidied', async () => {
    const bytes = new TextEncoder().encode('\uFEFF# Trocas\r\n\r\n\r\n\r\nAté 30 dias.  \r\n');
    expect(await documentText('md', bytes)).toBe('# Trocas\n\nAté 30 dias.');
    expect(await documentText('txt', bytes)).toBe('# Trocas\n\nAté 30 dias.');
  });

  it('a text file that is not UTF-8 is read as Windows-1252 (what older editors save)', async () => {
    const latin1 = Buffer.from('Devolução em até 7 dias', 'latin1');
    expect(await documentText('txt', latin1)).toBe('Devolução em até 7 dias');
  });

  it('a damaged PDF, a zip that is no Word document and garbage under the DOCX type are unreadable', async () => {
    await expect(documentText('pdf', Buffer.from('%PDF-1.4\nnothing else'))).rejects.toEqual(
      code('ERR_KNOWLEDGE_FILE_UNREADABLE'),
    );
    await expect(documentText('docx', await zipWithout())).rejects.toEqual(code('ERR_KNOWLEDGE_FILE_UNREADABLE'));
    await expect(documentText('docx', Buffer.from('PK\x03\x04 not a zip'))).rejects.toEqual(
      code('ERR_KNOWLEDGE_FILE_UNREADABLE'),
    );
  });

  it('a document without letters or digits is empty (ERR_KNOWLEDGE_EMPTY)', async () => {
    await expect(documentText('pdf', pdfOf([]))).rejects.toEqual(code('ERR_KNOWLEDGE_EMPTY'));
    await expect(documentText('docx', await docxOf(['  ', '---']))).rejects.toEqual(code('ERR_KNOWLEDGE_EMPTY'));
    await expect(documentText('txt', new TextEncoder().encode(' \n\t\n '))).rejects.toEqual(
      code('ERR_KNOWLEDGE_EMPTY'),
    );
  });

  it('text longer than KNOWLEDGE_MAX_BODY is refused (ERR_KNOWLEDGE_TOO_LARGE)', async () => {
    const long = new TextEncoder().encode('palavra '.repeat(KNOWLEDGE_MAX_BODY / 8 + 10));
    await expect(documentText('txt', long)).rejects.toEqual(code('ERR_KNOWLEDGE_TOO_LARGE'));
  });
});
