import { describe, it, expect } from 'vitest';
import { LocalQueue } from './queues';

const noDeadLetter = () => {
  throw new Error('unexpected dead letter');
};

describe('local queue (SQS semantics)', () => {
  it('idle for one company waits for its messages and for messages no company owns, not for other companies', async () => {
    const release = new Map<string, () => void>();
    const done: string[] = [];
    const q = new LocalQueue(
      { name: 'c', fifo: true, consumer: 'x' },
      async (e) => {
        const body = e.Records[0]!.body;
        await new Promise<void>((r) => release.set(body, r));
        done.push(body);
      },
      noDeadLetter,
    );
    const settled = (p: Promise<void>) =>
      Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 30))]);
    q.send(JSON.stringify({ companyId: 2, n: 1 }), { dedupId: 'a' });
    q.send('{"n":2}', { groupId: 'company#3#whatsapp#1', dedupId: 'b' });
    await new Promise((r) => setTimeout(r, 5));
    // company 1 has nothing queued: company 2's and company 3's work do not hold it up
    expect(await settled(q.idle('1'))).toBe(true);
    expect(await settled(q.idle('2'))).toBe(false);
    expect(await settled(q.idle('3'))).toBe(false);
    release.get(JSON.stringify({ companyId: 2, n: 1 }))!();
    expect(await settled(q.idle('2'))).toBe(true);
    expect(await settled(q.idle())).toBe(false);
    // a message that names no company holds up every company's wait
    q.send('not json', { dedupId: 'c' });
    await new Promise((r) => setTimeout(r, 5));
    const one = q.idle('1');
    expect(await settled(one)).toBe(false);
    release.get('not json')!();
    expect(await settled(one)).toBe(true);
    release.get('{"n":2}')!();
    expect(await settled(q.idle())).toBe(true);
    expect(done.sort()).toEqual(['not json', '{"companyId":2,"n":1}', '{"n":2}'].sort());
  });

  it('delivers messages of one FIFO group in order, one at a time', async () => {
    const seen: string[] = [];
    let concurrent = 0;
    let maxConcurrent = 0;
    const q = new LocalQueue(
      { name: 'f', fifo: true, consumer: 'x' },
      async (event) => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await new Promise((r) => setTimeout(r, 5));
        seen.push(event.Records[0]!.body);
        concurrent--;
      },
      noDeadLetter,
    );
    for (let i = 0; i < 5; i++) q.send(`m${i}`, { groupId: 'g', dedupId: `d${i}` });
    await q.idle();
    expect(seen).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(maxConcurrent).toBe(1);
  });

  it('idle waits for a short delay but not for a message scheduled minutes ahead (a campaign waiting for tomorrow)', async () => {
    const seen: string[] = [];
    const q = new LocalQueue(
      { name: 's', fifo: false, consumer: 'x' },
      async (e) => void seen.push(e.Records[0]!.body),
      noDeadLetter,
    );
    q.send('soon', { delaySeconds: 0.05 });
    q.send('in ten minutes', { delaySeconds: 600 });
    let idle = false;
    await Promise.race([
      q.idle().then(() => {
        idle = true;
      }),
      new Promise((r) => setTimeout(r, 2000)),
    ]);
    expect(idle).toBe(true);
    expect(seen).toEqual(['soon']);
    q.stop();
  });

  it('drops a FIFO message whose deduplication id was seen within five minutes', async () => {
    const seen: string[] = [];
    const q = new LocalQueue(
      { name: 'f', fifo: true, consumer: 'x' },
      async (e) => void seen.push(e.Records[0]!.body),
      noDeadLetter,
    );
    q.send('a', { groupId: 'g', dedupId: 'same' });
    q.send('b', { groupId: 'g', dedupId: 'same' });
    await q.idle();
    expect(seen).toEqual(['a']);
  });

  it('retries a failing message, keeps its group blocked meanwhile, then dead-letters it', async () => {
    const seen: string[] = [];
    const dead: string[] = [];
    const q = new LocalQueue(
      { name: 'f', fifo: true, consumer: 'x', maxReceiveCount: 3 },
      async (e) => {
        const body = e.Records[0]!.body;
        seen.push(`${body}#${e.Records[0]!.attributes.ApproximateReceiveCount}`);
        if (body === 'bad') throw new Error('boom');
      },
      (_q, m) => void dead.push(m.body),
      1,
    );
    q.send('bad', { groupId: 'g', dedupId: '1' });
    q.send('next', { groupId: 'g', dedupId: '2' });
    await q.idle();
    expect(seen).toEqual(['bad#1', 'bad#2', 'bad#3', 'next#1']);
    expect(dead).toEqual(['bad']);
  });

  it('honours a batch item failure report like an error', async () => {
    let calls = 0;
    const q = new LocalQueue(
      { name: 's', fifo: false, consumer: 'x', maxReceiveCount: 2 },
      async (e) => {
        calls++;
        return { batchItemFailures: [{ itemIdentifier: e.Records[0]!.messageId }] };
      },
      () => undefined,
      1,
    );
    q.send('x');
    await q.idle();
    expect(calls).toBe(2);
    expect(q.deadLetters).toHaveLength(1);
  });

  it('delays delivery by DelaySeconds', async () => {
    const at: number[] = [];
    const q = new LocalQueue(
      { name: 's', fifo: false, consumer: 'x' },
      async () => void at.push(Date.now()),
      noDeadLetter,
    );
    const started = Date.now();
    q.send('x', { delaySeconds: 1 });
    await q.idle();
    expect(at[0]! - started).toBeGreaterThanOrEqual(950);
  });

  it('counts what waits, what is being worked on and what is delayed, as GetQueueAttributes does', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const q = new LocalQueue({ name: 'c', fifo: true, consumer: 'x' }, () => held, noDeadLetter);
    q.send('working', { groupId: 'A', dedupId: '1' });
    q.send('waiting behind it', { groupId: 'A', dedupId: '2' });
    q.send('later', { groupId: 'B', dedupId: '3', delaySeconds: 600 });
    await new Promise((r) => setTimeout(r, 10));
    expect(q.counts()).toEqual({ visible: 1, notVisible: 1, delayed: 1, deadLetters: 0 });
    release();
    await q.idle();
    expect(q.counts()).toEqual({ visible: 0, notVisible: 0, delayed: 1, deadLetters: 0 });
    q.stop();
  });

  it('a redrive sends the dead letters back to the queue, where they are received again with a fresh count', async () => {
    let failing = true;
    const done: string[] = [];
    const receives: string[] = [];
    const q = new LocalQueue(
      { name: 'r', fifo: false, consumer: 'x', maxReceiveCount: 2 },
      async (event) => {
        const record = event.Records[0]!;
        receives.push(record.attributes.ApproximateReceiveCount);
        if (failing) throw new Error('downstream is down');
        done.push(record.body);
      },
      () => undefined,
      1,
    );
    q.send('poison for now');
    await q.idle();
    expect(q.counts().deadLetters).toBe(1);
    expect(receives).toEqual(['1', '2']);

    failing = false;
    expect(q.redrive()).toBe(1);
    await q.idle();
    expect(done).toEqual(['poison for now']);
    expect(receives).toEqual(['1', '2', '1']);
    expect(q.counts().deadLetters).toBe(0);
    expect(q.deadLettered).toBe(1);
    expect(q.redrive()).toBe(0);
    q.stop();
  });
});
