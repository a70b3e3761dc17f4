import { describe, expect, it } from 'vitest';
import { chooseAssignee, type Candidate } from './round-robin';

const free = (userId: number, open = 0, max: number | null = null): Candidate => ({ userId, open, max });
const all = (...ids: number[]) => new Set(ids);

describe('round-robin choice of an attendant', () => {
  it('starts with the lowest user id when the queue never chose anyone', () => {
    expect(chooseAssignee([free(7), free(3), free(5)], all(3, 5, 7), null)).toBe(3);
  });

  it('takes the next user after the one chosen last, wrapping around', () => {
    const queue = [free(3), free(5), free(7)];
    expect(chooseAssignee(queue, all(3, 5, 7), 3)).toBe(5);
    expect(chooseAssignee(queue, all(3, 5, 7), 5)).toBe(7);
    expect(chooseAssignee(queue, all(3, 5, 7), 7)).toBe(3);
  });

  it('goes on from where the last one was when that user left the queue', () => {
    expect(chooseAssignee([free(3), free(7)], all(3, 7), 5)).toBe(7);
    expect(chooseAssignee([free(3), free(7)], all(3, 7), 9)).toBe(3);
  });

  it('skips a user who is not available (offline or away)', () => {
    expect(chooseAssignee([free(3), free(5), free(7)], all(3, 7), 3)).toBe(7);
  });

  it('skips a user at their capacity, and counts no limit as room', () => {
    expect(chooseAssignee([free(3), free(5, 2, 2), free(7, 50)], all(3, 5, 7), 3)).toBe(7);
    expect(chooseAssignee([free(5, 1, 2)], all(5), 5)).toBe(5);
  });

  it('answers nobody when everyone is at capacity or unavailable', () => {
    expect(chooseAssignee([free(3, 1, 1), free(5)], all(3), null)).toBeNull();
    expect(chooseAssignee([], all(3), null)).toBeNull();
  });

  it('never chooses someone who is not among the candidates, even if available', () => {
    expect(chooseAssignee([free(3, 1, 1)], all(3, 99), null)).toBeNull();
  });
});
