import i18n from 'i18next';
import type { Macro } from '#shared/schemas/automation';
import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { asList } from '../realtime/cache';

/**
 * Macros from the keyboard (issue 40 item 5): `GET /macros` (the user's own and the shared ones) and
 * `POST /macros/{id}/run`. A server without the macros route (404) or a plan without them (403)
 * simply has none: the command bar shows no Macros group and alt+1..9 do nothing.
 */
export async function listMacros(): Promise<Macro[]> {
  try {
    return asList<Macro>(await api.get('/macros'), 'macros');
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return [];
    throw err;
  }
}

/** Runs a macro on a ticket; the ticket's changes arrive by realtime like any other. */
export async function runMacro(macro: Pick<Macro, 'id' | 'name'>, ticketId: number) {
  try {
    await api.post(`/macros/${macro.id}/run`, { ticketId });
    await i18n.loadNamespaces('keyboard');
    notify.success(i18n.t('keyboard:macroRan', { name: macro.name }));
  } catch (err) {
    toastError(err);
  }
}

/** alt+1..9 on the ticket page: the macro bearing that shortcut, if the user has one. */
export async function runMacroByShortcut(shortcut: string, ticketId: number) {
  const macro = (await listMacros().catch(() => [])).find((m) => m.shortcut === shortcut);
  if (macro) await runMacro(macro, ticketId);
}
