import { useConfirm } from './ConfirmProvider';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from './toast';

/**
 * The delete action of every list screen: confirm, DELETE the resource, take it out of the list,
 * toast the success; a failure goes to the one error handler.
 */
export function useConfirmedDelete() {
  const confirm = useConfirm();
  return async ({
    message,
    path,
    onDeleted,
    deleted,
  }: {
    message: string;
    path: string;
    onDeleted: () => void;
    deleted: string;
  }) => {
    if (!(await confirm({ message }))) return;
    try {
      await api.delete(path);
      onDeleted();
      notify.success(deleted);
    } catch (err) {
      toastError(err);
    }
  };
}
