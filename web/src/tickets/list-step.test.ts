import { describe, expect, test } from 'vitest';
import { stepTicket } from './list-step';

const list = [
  { uuid: 'a', status: 'open' },
  { uuid: 'p', status: 'pending' },
  { uuid: 'b', status: 'open' },
  { uuid: 'c', status: 'closed' },
];

describe('next/previous ticket of a list (issue 40 item 5)', () => {
  test('steps to the neighbour of the open ticket', () => {
    expect(stepTicket(list, 'b', 1)?.uuid).toBe('c');
    expect(stepTicket(list, 'b', -1)?.uuid).toBe('a');
  });
  test('a pending row is skipped: it is accepted, never opened', () => {
    expect(stepTicket(list, 'a', 1)?.uuid).toBe('b');
    expect(stepTicket([{ uuid: 'p', status: 'pending' }], undefined, 1)).toBeNull();
  });
  test('from no open ticket of the list: the first going down, the last going up', () => {
    expect(stepTicket(list, undefined, 1)?.uuid).toBe('a');
    expect(stepTicket(list, 'elsewhere', -1)?.uuid).toBe('c');
  });
  test('nothing past either end', () => {
    expect(stepTicket(list, 'c', 1)).toBeNull();
    expect(stepTicket(list, 'a', -1)).toBeNull();
  });
});
