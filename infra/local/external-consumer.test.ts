import { describe, it, expect } from 'vitest';
import { ExternalConsumer, LocalQueue } from './queues';

const def = { name: 'session-commands', fifo: true, consumer: 'session-runner' };
const noDeadLetter = () => undefined;

describe('local SQS for an external consumer (ReceiveMessage / DeleteMessage)', () => {
  it('FIFO per group: the next message of a group is handed out only after the previous one is deleted', async () => {
    const polled = new ExternalConsumer(30);
    const queue = new LocalQueue(def, polled.consumer, noDeadLetter, 10);
    queue.send('a1', { groupId: 'A', dedupId: '1' });
    queue.send('a2', { groupId: 'A', dedupId: '2' });
    queue.send('b1', { groupId: 'B', dedupId: '3' });
    const first = await polled.receive(10, 1);
    expect(first.map((m) => m.record.body).sort()).toEqual(['a1', 'b1']);
    expect(await polled.receive(10, 0)).toEqual([]);
    for (const m of first) polled.delete(m.receiptHandle);
    const next = await polled.receive(10, 1);
    expect(next.map((m) => m.record.body)).toEqual(['a2']);
    polled.delete(next[0]!.receiptHandle);
    await queue.idle();
    queue.stop();
  });

  it('long polling waits for a message; a visibility timeout that runs out redelivers it', async () => {
    const polled = new ExternalConsumer(30);
    const queue = new LocalQueue(def, polled.consumer, noDeadLetter, 10);
    const waiting = polled.receive(1, 2, 0.05);
    setTimeout(() => queue.send('late', { groupId: 'A', dedupId: 'x' }), 50);
    const [got] = await waiting;
    expect(got!.record.body).toBe('late');
    // not deleted in time: back on the queue as a second receive
    const again = await polled.receive(1, 2);
    expect(again[0]!.record.body).toBe('late');
    expect(again[0]!.record.attributes.ApproximateReceiveCount).toBe('2');
    expect(polled.delete(got!.receiptHandle)).toBe(false);
    expect(polled.delete(again[0]!.receiptHandle)).toBe(true);
    await queue.idle();
    queue.stop();
  });

  it('a duplicate dedup id within the window is dropped', async () => {
    const polled = new ExternalConsumer(30);
    const queue = new LocalQueue(def, polled.consumer, noDeadLetter, 10);
    queue.send('one', { groupId: 'A', dedupId: 'same' });
    queue.send('one again', { groupId: 'A', dedupId: 'same' });
    const got = await polled.receive(10, 1);
    polled.delete(got[0]!.receiptHandle);
    expect(await polled.receive(10, 0.1)).toEqual([]);
    queue.stop();
  });

  it('a killed consumer hands back only what it received: the messages another runner holds stay with it', async () => {
    const polled = new ExternalConsumer(30);
    const queue = new LocalQueue(def, polled.consumer, noDeadLetter, 10);
    queue.send('a1', { groupId: 'A', dedupId: 'a1' });
    queue.send('b1', { groupId: 'B', dedupId: 'b1' });
    const [mine] = await polled.receive(1, 1, 30, 'runner-1');
    const [theirs] = await polled.receive(1, 1, 30, 'runner-2');
    polled.abandonLeases('runner-1');
    const again = await polled.receive(10, 1, 30, 'runner-2');
    expect(again.map((m) => m.record.body)).toEqual([mine!.record.body]);
    // runner-2's own message is still leased to it
    expect(polled.delete(theirs!.receiptHandle)).toBe(true);
    expect(polled.delete(mine!.receiptHandle)).toBe(false);
    polled.delete(again[0]!.receiptHandle);
    await queue.idle();
    queue.stop();
  });
});
