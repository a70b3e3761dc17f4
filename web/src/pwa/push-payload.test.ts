import { describe, expect, test } from 'vitest';
import { parsePush, safeUrl } from './push-payload';

describe('push payload', () => {
  test('a well-formed push keeps title, body, url and tag', () => {
    expect(parsePush('{"title":"Ana","body":"Oi","url":"/tickets/12","tag":"ticket-12"}')).toEqual({
      title: 'Ana',
      body: 'Oi',
      url: '/tickets/12',
      tag: 'ticket-12',
    });
  });
  test('a malformed push still shows a notification (browsers require one per push)', () => {
    expect(parsePush('not json')).toEqual({ title: 'Inbox', body: 'not json', url: '/' });
    expect(parsePush(undefined)).toEqual({ title: 'Inbox', body: '', url: '/' });
    expect(parsePush('{"title":3,"url":null}')).toEqual({ title: 'Inbox', body: '', url: '/', tag: undefined });
  });
  test('a notification only opens addresses of the app itself', () => {
    const origin = 'https://inbox.example.com';
    expect(safeUrl('/tickets/12', origin)).toBe('https://inbox.example.com/tickets/12');
    expect(safeUrl('https://inbox.example.com/chats', origin)).toBe('https://inbox.example.com/chats');
    expect(safeUrl('https://evil.example.net/x', origin)).toBe('https://inbox.example.com/');
    expect(safeUrl('javascript:alert(1)', origin)).toBe('https://inbox.example.com/');
    expect(safeUrl(undefined, origin)).toBe('https://inbox.example.com/');
  });
});
