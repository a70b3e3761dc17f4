import { describe, expect, test } from 'vitest';
import { ticketQuery } from './ticket-query';

describe("the command bar's ticket search (issue 40 item 5)", () => {
  test('#123 is a ticket number only', () => {
    expect(ticketQuery('#123')).toEqual({ number: 123, search: null });
    expect(ticketQuery('# 7')).toEqual({ number: 7, search: null });
  });
  test('bare digits are a number and a search (the list search matches phone numbers)', () => {
    expect(ticketQuery('4521')).toEqual({ number: 4521, search: '4521' });
    expect(ticketQuery('9')).toEqual({ number: 9, search: null });
  });
  test('a name of two characters or more is searched, lowercased as the Search tab does', () => {
    expect(ticketQuery('Maria S')).toEqual({ number: null, search: 'maria s' });
    expect(ticketQuery('M')).toEqual({ number: null, search: null });
  });
  test('a quick reply (/) or a bare # searches no tickets', () => {
    expect(ticketQuery('/ola')).toEqual({ number: null, search: null });
    expect(ticketQuery('#')).toEqual({ number: null, search: null });
    expect(ticketQuery('#abc')).toEqual({ number: null, search: null });
  });
});
