/** A tiny toast store: one queue the Toaster renders (closes after TOAST_CLOSE_MS). */
export type ToastKind = 'success' | 'error' | 'info' | 'warning';
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

let seq = 0;
let queue: Toast[] = [];
const listeners = new Set<(t: Toast[]) => void>();
const emit = () => {
  for (const l of listeners) l(queue);
};

export const toasts = {
  subscribe(l: (t: Toast[]) => void) {
    listeners.add(l);
    return () => void listeners.delete(l);
  },
  /** Queues a toast; its id lets a later outcome replace it (`dismiss`). */
  push(kind: ToastKind, text: string): number {
    const id = ++seq;
    queue = [...queue, { id, kind, text }];
    emit();
    return id;
  },
  dismiss(id: number) {
    queue = queue.filter((t) => t.id !== id);
    emit();
  },
  current: () => queue,
};

export const notify = {
  success: (text: string) => toasts.push('success', text),
  error: (text: string) => toasts.push('error', text),
  info: (text: string) => toasts.push('info', text),
  warning: (text: string) => toasts.push('warning', text),
};
