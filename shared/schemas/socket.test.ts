import { describe, expect, it } from 'vitest';
import { ClientMessage } from './socket';

describe('what a browser may send on the socket', () => {
  it('the messages the web app sends are taken, ticket ids as numbers', () => {
    expect(ClientMessage.parse({ action: 'joinChatBox', value: 12 })).toEqual({ action: 'joinChatBox', value: 12 });
    expect(ClientMessage.parse({ action: 'typing', value: '12' })).toEqual({ action: 'typing', value: 12 });
    expect(ClientMessage.parse({ action: 'joinTickets', value: 'pending' })).toEqual({
      action: 'joinTickets',
      value: 'pending',
    });
    // a value sent along with an action that takes none is dropped, not kept
    expect(ClientMessage.parse({ action: 'joinNotification', value: 'x' })).toEqual({ action: 'joinNotification' });
    expect(ClientMessage.parse({ action: 'ping', extra: 'y' })).toEqual({ action: 'ping' });
  });

  it('unknown actions and rooms, and ticket ids that are not positive integers of at most 15 digits, are refused', () => {
    for (const bad of [
      null,
      [],
      'ping',
      {},
      { action: 'joinRoom', value: 'x' },
      { action: 'joinTickets', value: 'search' },
      { action: 'joinTickets', value: 'open'.repeat(1000) },
      { action: 'joinChatBox' },
      { action: 'joinChatBox', value: 0 },
      { action: 'joinChatBox', value: 1.5 },
      { action: 'joinChatBox', value: '1e3' },
      { action: 'joinChatBox', value: '0012' },
      { action: 'joinChatBox', value: '1'.repeat(16) },
      { action: 'joinChatBox', value: Number.MAX_SAFE_INTEGER + 2 },
      { action: 'typing', value: { id: 1 } },
    ])
      expect(ClientMessage.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
