import { describe, expect, test } from 'vitest';
import { openApp, pickWindow, type AppWindow, type AppWindows } from './open-app';
import { parsePush, safeUrl } from './push-payload';

const ORIGIN = 'https://inbox.example.com';
const TICKET = `${ORIGIN}/tickets/0b6f7f0e-2b7a-4c55-9d0e-3f1e2a9c8b7d`;

/** A fake window that records what the worker asked of it. */
function win(url: string, state: Partial<Pick<AppWindow, 'focused' | 'visibilityState'>> = {}) {
  const calls: string[] = [];
  const w: AppWindow & { calls: string[] } = {
    url,
    focused: state.focused ?? false,
    visibilityState: state.visibilityState ?? 'hidden',
    calls,
    focus: async () => {
      calls.push('focus');
      return w;
    },
    navigate: async (to) => {
      calls.push(`navigate ${to}`);
      return w;
    },
  };
  return w;
}

function clients(windows: AppWindow[]) {
  const opened: string[] = [];
  const c: AppWindows & { opened: string[] } = {
    opened,
    matchAll: async () => windows,
    openWindow: async (url) => {
      opened.push(url);
      return null;
    },
  };
  return c;
}

describe('a click on a notification', () => {
  test("a ticket's push opens that ticket's address in the app", () => {
    const push = parsePush(JSON.stringify({ title: 'Ana', body: 'Oi', url: new URL(TICKET).pathname, tag: 't' }));
    expect(safeUrl(push.url, ORIGIN)).toBe(TICKET);
  });

  test('an open window of the app is focused and sent to the ticket; no new window opens', async () => {
    const page = win(`${ORIGIN}/tickets`, { focused: true, visibilityState: 'visible' });
    const all = clients([page]);
    await openApp(all, TICKET);
    expect(page.calls).toEqual(['focus', `navigate ${TICKET}`]);
    expect(all.opened).toEqual([]);
  });

  test('the window the user looks at is chosen: the focused one, else a visible one, else the first', () => {
    const hidden = win(`${ORIGIN}/`);
    const visible = win(`${ORIGIN}/contacts`, { visibilityState: 'visible' });
    const focused = win(`${ORIGIN}/kanban`, { focused: true, visibilityState: 'visible' });
    expect(pickWindow([hidden, visible, focused], TICKET)).toEqual({ window: focused, navigate: true });
    expect(pickWindow([hidden, visible], TICKET)).toEqual({ window: visible, navigate: true });
    expect(pickWindow([hidden], TICKET)).toEqual({ window: hidden, navigate: true });
    expect(pickWindow([], TICKET)).toBeUndefined();
  });

  test('a window already showing the ticket is only focused (the page does not reload)', async () => {
    const focused = win(`${ORIGIN}/kanban`, { focused: true, visibilityState: 'visible' });
    const there = win(TICKET);
    const all = clients([focused, there]);
    await openApp(all, TICKET);
    expect(there.calls).toEqual(['focus']);
    expect(focused.calls).toEqual([]);
    expect(all.opened).toEqual([]);
  });

  test('with no window of the app open, a new window opens at the ticket', async () => {
    const all = clients([]);
    await openApp(all, TICKET);
    expect(all.opened).toEqual([TICKET]);
  });

  test('a window that cannot be navigated (gone, or refused) leaves a new window opening at the ticket', async () => {
    const refused = win(`${ORIGIN}/`, { focused: true });
    refused.navigate = async () => null;
    const gone = win(`${ORIGIN}/`, { focused: true });
    gone.focus = async () => {
      throw new TypeError('not allowed to focus');
    };
    for (const w of [refused, gone]) {
      const all = clients([w]);
      await openApp(all, TICKET);
      expect(all.opened).toEqual([TICKET]);
    }
  });
});
