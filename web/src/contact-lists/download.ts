import { api } from '../api/client';
import { config } from '../config';
import { sessionStore } from '../auth/storage';
import { ApiError } from '../api/errors';

/**
 * Downloads a file the API answers with (not JSON) and hands it to the browser under `fileName`.
 * An expired token is refreshed once through the one client.
 */
export async function downloadFile(path: string, fileName: string) {
  const get = () =>
    fetch(`${config().apiUrl}${path}`, {
      headers: { Authorization: `Bearer ${sessionStore.token() ?? ''}` },
      credentials: 'include',
    });
  let res = await get();
  if (res.status === 403 && (await api.refresh())) res = await get();
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(res.status, body.error);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
