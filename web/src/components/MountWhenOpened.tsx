import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders a lazily loaded dialog or drawer from the first time it opens on, so its code is not part of
 * the page's first download (issue 25). It stays mounted afterwards: it closes with its transition and
 * reopens at once, as before.
 */
export function MountWhenOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
