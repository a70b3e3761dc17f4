import { describe, it, expect } from 'vitest';
import { perGroupSequencer } from './sequencer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('commands of one connection run in order', () => {
  it('a batch with two commands of one group runs them one after another; other groups do not wait', async () => {
    const run = perGroupSequencer();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
    };
    await Promise.all([run('A', task('a1', 40)), run('A', task('a2', 1)), run('B', task('b1', 5))]);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('end b1')).toBeLessThan(log.indexOf('end a1'));
  });

  it('a failed command does not stop the next one of its group', async () => {
    const run = perGroupSequencer();
    const done: string[] = [];
    await Promise.allSettled([
      run('A', async () => Promise.reject(new Error('boom'))),
      run('A', async () => void done.push('a2')),
    ]);
    expect(done).toEqual(['a2']);
  });
});

describe('provider events: in order per chat, bounded overall', () => {
  it('an edit queued behind its slow message waits for it; no more than `limit` tasks run at once', async () => {
    const run = perGroupSequencer(2);
    const log: string[] = [];
    let running = 0;
    let peak = 0;
    const task = (name: string, ms: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
      running--;
    };
    await Promise.all([
      run('chat-1', task('message', 30)),
      run('chat-1', task('edit', 1)),
      ...Array.from({ length: 6 }, (_, i) => run(`chat-${i + 2}`, task(`other-${i}`, 5))),
    ]);
    expect(log.indexOf('end message')).toBeLessThan(log.indexOf('start edit'));
    expect(peak).toBe(2);
  });
});
