import { describe, expect, it } from 'vitest';
import { answerCode, curlMedia, curlText, sendEndpoint, sendTest, validateSend } from './send-form';

const file = new File(['%PDF-1.4'], 'invoice.pdf', { type: 'application/pdf' });

describe('messages API test forms (management.md 5)', () => {
  it('token, number and body are required', () => {
    expect(validateSend({ token: ' ', number: '', body: '' }, false)).toEqual({
      token: 'required',
      number: 'required',
      body: 'required',
    });
  });
  it('a number that is not a phone is invalid; a good form has no errors', () => {
    expect(validateSend({ token: 't', number: 'abc', body: 'hi' }, false)).toEqual({ number: 'invalid' });
    expect(validateSend({ token: 't', number: '+55 (11) 99999-0000', body: 'hi' }, false)).toEqual({});
  });
  it("a token that is not the chosen connection's is refused before calling", () => {
    const form = { number: '5511999990000', body: 'hi', masked: '********f00d' };
    expect(validateSend({ ...form, token: 'abc123' }, false)).toEqual({ token: 'tokenMismatch' });
    expect(validateSend({ ...form, token: 'abcf00d' }, false)).toEqual({});
    expect(validateSend({ ...form, masked: '', token: 'abc123' }, false)).toEqual({});
  });
  it('the media form also requires a file', () => {
    expect(validateSend({ token: 't', number: '5511999990000', body: 'hi', file: null }, true)).toEqual({
      file: 'required',
    });
    expect(validateSend({ token: 't', number: '5511999990000', body: 'hi', file }, true)).toEqual({});
  });
});

describe('the documented endpoint', () => {
  it('is the page host plus the API base, or the configured absolute API URL', () => {
    expect(sendEndpoint('/api', 'https://inbox.example.com')).toBe('https://inbox.example.com/api/messages/send');
    expect(sendEndpoint('https://api.example.com/v1/', 'https://inbox.example.com')).toBe(
      'https://api.example.com/v1/messages/send',
    );
  });
  it('the curl examples carry the endpoint and the bearer header', () => {
    expect(curlText('http://h/api/messages/send')).toContain("curl -X POST 'http://h/api/messages/send'");
    expect(curlText('x')).toContain('Authorization: Bearer <token>');
    expect(curlMedia('x')).toContain("-F 'medias=@invoice.pdf'");
  });
});

describe('sendTest', () => {
  it('text goes as JSON with the connection token as Bearer and the answer is returned', async () => {
    let seen: { url: string; init: RequestInit } | undefined;
    const fake = (async (url: string, init: RequestInit) => {
      seen = { url, init };
      return new Response(JSON.stringify({ message: 'Message sent' }), { status: 200 });
    }) as unknown as typeof fetch;
    const answer = await sendTest(
      'http://h/api/messages/send',
      { token: ' tok ', number: '55', body: 'Hi' },
      false,
      fake,
    );
    expect(answer).toEqual({ status: 200, body: { message: 'Message sent' } });
    const headers = seen?.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok');
    expect(headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(seen?.init.body))).toEqual({ number: '55', body: 'Hi' });
    expect(seen?.init.credentials).toBe('omit');
  });
  it('media goes as multipart with the file under medias; an error answer exposes its code', async () => {
    let body: BodyInit | null | undefined;
    const fake = (async (_: string, init: RequestInit) => {
      body = init.body;
      return new Response(JSON.stringify({ error: 'ERR_SESSION_EXPIRED' }), { status: 401 });
    }) as unknown as typeof fetch;
    const answer = await sendTest('u', { token: 't', number: '55', body: 'Doc', file }, true, fake);
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect(form.get('number')).toBe('55');
    expect((form.get('medias') as File).name).toBe('invoice.pdf');
    expect(answer.status).toBe(401);
    expect(answerCode(answer)).toBe('ERR_SESSION_EXPIRED');
  });
});
