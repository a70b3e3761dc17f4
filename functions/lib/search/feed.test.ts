import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { applyChanges, kindOf } from './feed';
import type { SearchPort } from './port';

/** A port that records what the feed asks of it. */
function recorder() {
  const calls: [string, ...unknown[]][] = [];
  const port: SearchPort = {
    index: async (docs) => void calls.push(['index', docs]),
    remove: async (companyId, ids) => void calls.push(['remove', companyId, ids]),
    updateTicket: async (companyId, facts) => void calls.push(['updateTicket', companyId, facts]),
    search: async () => ({ hits: [] }),
    clear: async () => undefined,
  };
  return { port, calls };
}
const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', now?: object, old?: object): DynamoDBRecord => ({
  eventName,
  dynamodb: {
    ...(now ? { NewImage: marshall(now, { removeUndefinedValues: true }) as never } : {}),
    ...(old ? { OldImage: marshall(old, { removeUndefinedValues: true }) as never } : {}),
  },
});
const message = {
  pk: 'C#1#MSG#5#2',
  sk: 'M#abc',
  id: 'abc',
  companyId: 1,
  ticketId: 3,
  body: 'olá',
  ack: 1,
  isDeleted: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const ticket = {
  pk: 'C#1',
  sk: 'TICKET#0000000003',
  id: 3,
  uuid: 'u3',
  companyId: 1,
  status: 'open',
  queueId: 4,
  userId: 2,
  whatsappId: 2,
  contactId: 5,
  contact: { id: 5, name: 'Ana', number: '5511' },
  tags: [],
  lastMessage: 'a',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('search feed', () => {
  it('knows messages, notes and tickets by their keys, and nothing else', () => {
    expect(kindOf(message)).toBe('message');
    expect(kindOf({ pk: 'C#1#NOTES#5', sk: 'N#0000000003#0000000009' })).toBe('note');
    expect(kindOf(ticket)).toBe('ticket');
    expect(kindOf({ pk: 'C#1', sk: 'CONTACT#0000000005' })).toBeUndefined();
    expect(kindOf({ pk: 'C#1#WID#x', sk: 'WID' })).toBeUndefined();
  });

  it('an ack (nothing searchable changed) costs no read and no index call', async () => {
    const { port, calls } = recorder();
    await applyChanges(port, [record('MODIFY', { ...message, ack: 3 }, message)]);
    expect(calls).toEqual([]);
  });

  it("a ticket's move that keeps its facts (a new message's preview) changes nothing; a transfer moves its documents", async () => {
    const { port, calls } = recorder();
    await applyChanges(port, [
      record('MODIFY', { ...ticket, lastMessage: 'b', updatedAt: '2026-01-02T00:00:00.000Z' }, ticket),
      record('MODIFY', { ...ticket, queueId: 7, userId: null }, ticket),
    ]);
    expect(calls).toEqual([
      [
        'updateTicket',
        1,
        {
          ticketId: 3,
          uuid: 'u3',
          status: 'open',
          queueId: 7,
          userId: null,
          whatsappId: 2,
          tagIds: [],
          contactId: 5,
          contactName: 'Ana',
          contactNumber: '5511',
        },
      ],
    ]);
  });

  it('a removed message or note leaves the index', async () => {
    const { port, calls } = recorder();
    await applyChanges(port, [
      record('REMOVE', undefined, message),
      record('REMOVE', undefined, {
        pk: 'C#1#NOTES#5',
        sk: 'N#0000000003#0000000009',
        id: 9,
        companyId: 1,
        ticketId: 3,
      }),
    ]);
    expect(calls).toEqual([
      ['remove', 1, ['m:abc']],
      ['remove', 1, ['n:9']],
    ]);
  });
});
