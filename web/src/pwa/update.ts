/** "A new version is waiting": set by the registration, read by the prompt (useSyncExternalStore). */
let apply: (() => void) | null = null;
const listeners = new Set<() => void>();

export const pendingUpdate = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  current: () => apply,
};

export function offerUpdate(activate: () => void) {
  apply = activate;
  for (const l of listeners) l();
}
