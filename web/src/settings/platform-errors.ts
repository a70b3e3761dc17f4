import i18n from 'i18next';
import { ApiError } from '../api/errors';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';

/**
 * Companies, plans and helps (management.md 8): a refused save gets the generic failure (the
 * operation could not be completed, check for a duplicate name or fields); any other error its
 * catalogued text.
 */
export function platformError(err: unknown) {
  if (err instanceof ApiError && (err.code === 'ERR_VALIDATION' || err.code === 'ERR_CONFLICT' || err.status === 409))
    return notify.error(i18n.t('settings:platform.failure'));
  toastError(err);
}
