import i18n from 'i18next';
import { notify } from '../components/toast';
import { ApiError } from './errors';

/**
 * The one error handler (attendance.md section 8): the server's code is translated when a message
 * exists, otherwise shown raw; with no code at all only the console hears about it.
 */
export function errorMessage(err: unknown): string | null {
  const code = err instanceof ApiError ? err.code : undefined;
  if (!code) return null;
  return i18n.exists(`errors:${code}`) ? i18n.t(`errors:${code}`) : code;
}

export function toastError(err: unknown) {
  if (!(err instanceof ApiError && err.code)) return console.error(err);
  // the texts load beside the first page: an error in its first moments waits for them
  if (i18n.hasLoadedNamespace('errors')) notify.error(errorMessage(err) as string);
  else void i18n.loadNamespaces('errors').then(() => notify.error(errorMessage(err) as string));
}
