import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { debounce } from './debounce';
import { DEBOUNCE_MS } from '#shared/constants';
import { searchQuery } from '../tickets/search';

describe('search debounce (500 ms, section 9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('typing fires one search 500 ms after the last key, with the last text', () => {
    const calls: string[] = [];
    const search = debounce((q: string) => calls.push(q), DEBOUNCE_MS);
    search('m');
    vi.advanceTimersByTime(300);
    search('ma');
    vi.advanceTimersByTime(300);
    search('mar');
    vi.advanceTimersByTime(499);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['mar']);
  });

  test('the search text is lowercased; clearing it returns to the Open tab', () => {
    expect(searchQuery('  MARIA Silva ')).toEqual({ searchParam: 'maria silva', backToOpen: false });
    expect(searchQuery('   ')).toEqual({ searchParam: '', backToOpen: true });
  });
});
