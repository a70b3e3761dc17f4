import { lazy, Suspense, useSyncExternalStore } from 'react';
import { Box } from '@mui/material';
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
      <Box
        role="status"
        sx={{
          position: 'fixed',
          left: 0,
          right: 0,
          bottom: 0,
          zIndex: (th) => th.zIndex.tooltip + 1,
          // never in the way of a tap: the page under it stays usable
          pointerEvents: 'none',
          ...(offline && {
            px: 2,
            pt: 1,
            pb: 'calc(8px + env(safe-area-inset-bottom))',
            bgcolor: 'warning.main',
            color: 'warning.contrastText',
            typography: 'body2',
            textAlign: 'center',
            boxShadow: 3,
          }),
        }}
      >
        {offline ? t('offline') : null}
      </Box>
      {update && (
        <Suspense fallback={null}>
          <UpdateSnackbar onUpdate={update} />
        </Suspense>
      )}
    </>
  );
}
