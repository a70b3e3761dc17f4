/** The personal to-do list (attendance.md 2.3): browser storage only. */
export interface Todo {
  id: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

const KEY = 'tasks';

export function loadTodos(storage: Pick<Storage, 'getItem'> = localStorage): Todo[] {
  try {
    const list = JSON.parse(storage.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export const saveTodos = (list: Todo[], storage: Pick<Storage, 'setItem'> = localStorage) =>
  storage.setItem(KEY, JSON.stringify(list));

/** Empty (or blank) text is ignored. */
export function addTodo(list: Todo[], text: string, now = new Date(), id: string = crypto.randomUUID()): Todo[] {
  const clean = text.trim();
  if (!clean) return list;
  const stamp = now.toISOString();
  return [...list, { id, text: clean, createdAt: stamp, updatedAt: stamp }];
}

/** Editing keeps createdAt and moves updatedAt; blank text leaves the task as it was. */
export function editTodo(list: Todo[], id: string, text: string, now = new Date()): Todo[] {
  const clean = text.trim();
  if (!clean) return list;
  return list.map((t) => (t.id === id ? { ...t, text: clean, updatedAt: now.toISOString() } : t));
}

export const removeTodo = (list: Todo[], id: string) => list.filter((t) => t.id !== id);
