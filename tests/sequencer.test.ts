import { describe, expect, it } from 'vitest';
import { spreadTimers, timersOf } from './integration/sequencer';

const file = (name: string, timers: string[], estimate = 10) => ({ file: name, timers, estimate });

describe('the integration files are ordered so that files taking one timer lock do not meet', () => {
  it('reads the timers a file declares for the whole file or holds around a tick', () => {
    const text = "usesTimers('company-cleanup', 'cloud-status');\n  const release = await holdTimer('schedules');";
    expect(timersOf(text).sort()).toEqual(['cloud-status', 'company-cleanup', 'schedules']);
    expect(timersOf("runsAlone();\nawait runTimer('invoices');")).toEqual([]);
  });

  it('a free worker takes the first file whose timers no running file holds', () => {
    // in the given order A and B would run at once and B would wait for A's 10 s
    const order = spreadTimers([file('A', ['invoices']), file('B', ['invoices']), file('C', []), file('D', [])], 2);
    expect(order).toEqual(['A', 'C', 'B', 'D']);
  });

  it('follows the estimates: a file may start once the one holding its timer is expected to end', () => {
    const order = spreadTimers(
      [file('long', ['schedules'], 50), file('short', [], 10), file('next', ['schedules'], 10), file('other', [], 60)],
      2,
    );
    // at 0: long, short; at 10 the schedules lock is held until 50: other; at 50: next
    expect(order).toEqual(['long', 'short', 'other', 'next']);
  });

  it('keeps the given order when every file left would wait, and loses none', () => {
    const files = [file('A', ['x']), file('B', ['x']), file('C', ['x'])];
    expect(spreadTimers(files, 4)).toEqual(['A', 'B', 'C']);
    expect(spreadTimers([], 4)).toEqual([]);
  });
});
