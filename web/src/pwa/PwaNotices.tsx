import { lazy, Suspense, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { connectivity } from './connectivity';
import { pendingUpdate } from './update';

// the snackbar's code loads only when a new version is actually waiting
const UpdateSnackbar = lazy(() => import('./UpdateSnackbar'));

/** The installed app's notices: offline (a live region, always present) and "new version". */
export function PwaNotices() {
  const { t } = useTranslation('pwa');
  const offline = useSyncExternalStore(connectivity.subscribe, connectivity.offline);
  const update = useSyncExternalStore(pendingUpdate.subscribe, pendingUpdate.current);
  return (
    <>
      {/* styled in theme/base.css: the notice shows before MUI loads */}
      <div role="status" className="app-offline">
        {offline ? t('offline') : null}
      </div>
      {update && (
        <Suspense fallback={null}>
          <UpdateSnackbar onUpdate={update} />
        </Suspense>
      )}
    </>
  );
}
