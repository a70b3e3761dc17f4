import { describe, expect, test } from 'vitest';
import { addTodo, editTodo, removeTodo } from './todos';

describe('to-do list (attendance.md 2.3)', () => {
  const t0 = new Date('2026-01-01T10:00:00Z');
  const t1 = new Date('2026-01-02T10:00:00Z');
  test('empty text is ignored', () => {
    expect(addTodo([], '   ', t0, 'a')).toEqual([]);
  });
  test('editing keeps createdAt and updates updatedAt', () => {
    const list = addTodo([], 'call', t0, 'a');
    const edited = editTodo(list, 'a', 'call back', t1);
    expect(edited[0]).toEqual({ id: 'a', text: 'call back', createdAt: t0.toISOString(), updatedAt: t1.toISOString() });
  });
  test('delete removes only that task', () => {
    const list = addTodo(addTodo([], 'one', t0, 'a'), 'two', t0, 'b');
    expect(removeTodo(list, 'a').map((t) => t.id)).toEqual(['b']);
  });
});
