/**
 * What a click on a notification does (issue 25): the app opens at the notification's address (a
 * ticket's `/tickets/<uuid>`), in a window of the app that is already open when there is one. Kept
 * apart from sw.ts, over the few members of the worker's `Clients` it uses, so it is tested without a
 * browser (Chromium cannot click a notification in a test).
 */

/** The members of a `WindowClient` used here. */
export interface AppWindow {
  url: string;
  focused: boolean;
  visibilityState: DocumentVisibilityState;
  focus(): Promise<AppWindow>;
  navigate(url: string): Promise<AppWindow | null>;
}

/** The members of the worker's `self.clients` used here. */
export interface AppWindows {
  matchAll(options: { type: 'window' }): Promise<readonly AppWindow[]>;
  openWindow(url: string): Promise<unknown>;
}

/**
 * Which open window shows `url`: one already there (it is only focused, nothing reloads), else the
 * one the user last looked at (focused, then visible, then any), which is sent to `url`.
 */
export function pickWindow(
  windows: readonly AppWindow[],
  url: string,
): { window: AppWindow; navigate: boolean } | undefined {
  const there = windows.find((w) => w.url === url);
  if (there) return { window: there, navigate: false };
  const window = windows.find((w) => w.focused) ?? windows.find((w) => w.visibilityState === 'visible') ?? windows[0];
  return window && { window, navigate: true };
}

/** Focuses a window of the app and sends it to `url` (an address of the app), or opens a new one there. */
export async function openApp(clients: AppWindows, url: string): Promise<void> {
  // only windows this worker controls are listed, and only those may be navigated
  const choice = pickWindow(await clients.matchAll({ type: 'window' }), url);
  if (choice) {
    try {
      const focused = await choice.window.focus();
      if (!choice.navigate) return;
      // null: the browser refused (the window left the app meanwhile)
      if (await focused.navigate(url)) return;
    } catch {
      // the window went away, or the browser does not let it be focused or navigated now
    }
  }
  await clients.openWindow(url);
}
