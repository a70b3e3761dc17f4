import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Integration files run several at a time on one stack. Most only touch the companies they create;
 * a few act on the whole platform (timers over every company, platform settings, announcements,
 * data upgrades) and must run with no other file beside them. These are readers-writer locks over
 * HTTP, held by the global setup: every file takes the `stack` lock shared, a file that called
 * `runsAlone()` takes it exclusive. A file that runs a timer over every company (`usesTimers()`)
 * also takes that timer's own lock exclusive: two files that drive the schedules timer never run
 * at once (one's tick would send the other's due schedules early), while files that do not use it
 * go on beside them. Each lock serves requests in arrival order, so a file waiting to run alone is
 * not starved: files that arrive after it wait until it is done.
 */
export type LockMode = 'shared' | 'exclusive';

interface Waiter {
  id: number;
  mode: LockMode;
  granted: boolean;
  /** the long poll waiting for the grant, if one is open */
  notify?: () => void;
}

export interface FileLockServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `aloneFiles`: how many files of this run will take the stack lock exclusive (the global setup
 * reads what sequencer.ts counted); `gateMs`: how long they have to get in line before the others
 * go ahead anyway.
 */
export async function startFileLock(
  opts: { aloneFiles?: () => number; gateMs?: number } = {},
): Promise<FileLockServer> {
  const aloneFiles = opts.aloneFiles ?? (() => 0);
  const gateMs = opts.gateMs ?? 20_000;
  let nextId = 1;
  /** per lock name: who waits, in arrival order, and who holds it */
  type Lock = { queue: Waiter[]; holders: Map<number, LockMode> };
  const locks = new Map<string, Lock>();
  const lockOf = (name: string) => {
    const lock: Lock = locks.get(name) ?? { queue: [], holders: new Map() };
    locks.set(name, lock);
    return lock;
  };
  const waiters = new Map<number, { waiter: Waiter; name: string }>();

  // The files that run alone go first (sequencer.ts, which counts them into TEST_ALONE_FILES), but
  // a file beside them that loads faster could get in line before them, and then every file behind
  // them waited for that one (95 s in one run). Until they are all in line, the stack lock is
  // granted to none of the others; a file that never comes opens the gate after `gateMs`.
  let aloneInLine = 0;
  let gateClosesAt: number | undefined;
  const gateOpen = () => aloneInLine >= aloneFiles() || Date.now() > (gateClosesAt ?? Infinity);

  const grant = (name: string) => {
    const { queue, holders } = lockOf(name);
    while (queue.length) {
      const head = queue[0]!;
      if (name === 'stack' && head.mode === 'shared' && !gateOpen()) return;
      const modes = [...holders.values()];
      const free = head.mode === 'shared' ? !modes.includes('exclusive') : modes.length === 0;
      if (!free) return;
      queue.shift();
      holders.set(head.id, head.mode);
      head.granted = true;
      head.notify?.();
    }
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://lock');
    const answer = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    const id = Number(url.searchParams.get('id'));
    if (url.pathname === '/enqueue') {
      const name = url.searchParams.get('name') || 'stack';
      const mode: LockMode = url.searchParams.get('mode') === 'exclusive' ? 'exclusive' : 'shared';
      const waiter: Waiter = { id: nextId++, mode, granted: false };
      const { queue } = lockOf(name);
      const firstHeld = name === 'stack' && !gateOpen() ? queue.findIndex((w) => w.mode === 'shared') : -1;
      // a lone file goes ahead of the files that came first but are held at the gate
      if (mode === 'exclusive' && firstHeld !== -1) queue.splice(firstHeld, 0, waiter);
      else queue.push(waiter);
      if (name === 'stack' && mode === 'exclusive') aloneInLine++;
      if (name === 'stack' && mode === 'shared' && gateClosesAt === undefined) {
        gateClosesAt = Date.now() + gateMs;
        setTimeout(() => grant('stack'), gateMs + 10).unref();
      }
      waiters.set(waiter.id, { waiter, name });
      grant(name);
      return answer({ id: waiter.id });
    }
    const entry = waiters.get(id);
    if (url.pathname === '/wait') {
      if (!entry) return answer({ granted: false, unknown: true });
      const { waiter } = entry;
      if (waiter.granted) return answer({ granted: true });
      // a long poll of at most 20 s: the client asks again, keeping its place in the queue
      const timer = setTimeout(() => {
        waiter.notify = undefined;
        answer({ granted: false });
      }, 20_000);
      waiter.notify = () => {
        clearTimeout(timer);
        answer({ granted: true });
      };
      return;
    }
    if (url.pathname === '/release') {
      if (entry) {
        const lock = lockOf(entry.name);
        lock.holders.delete(id);
        const i = lock.queue.indexOf(entry.waiter);
        if (i >= 0) lock.queue.splice(i, 1);
        waiters.delete(id);
        grant(entry.name);
      }
      return answer({ released: true });
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Takes the lock `name` in `mode`, waiting as long as it takes; returns its release. */
export async function acquireFileLock(url: string, mode: LockMode, name = 'stack'): Promise<() => Promise<void>> {
  const query = new URLSearchParams({ name, mode });
  const { id } = (await (await fetch(`${url}/enqueue?${query}`, { method: 'POST' })).json()) as { id: number };
  for (;;) {
    const state = (await (await fetch(`${url}/wait?id=${id}`)).json()) as { granted: boolean; unknown?: boolean };
    if (state.granted) break;
    if (state.unknown) throw new Error(`file lock ${id} was forgotten by the lock server`);
  }
  return async () => {
    await fetch(`${url}/release?id=${id}`, { method: 'POST' });
  };
}
