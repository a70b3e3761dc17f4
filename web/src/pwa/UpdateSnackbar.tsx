import { Button, Snackbar } from '@mui/material';
import { useTranslation } from 'react-i18next';
import MuiTheme from '../theme/MuiTheme';

/** "A new version is available. [Update]": the new service worker takes over and the page reloads. */
export default function UpdateSnackbar({ onUpdate }: { onUpdate: () => void }) {
  const { t } = useTranslation('pwa');
  return (
    <MuiTheme>
      <Snackbar
        open
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        message={t('update.ready')}
        action={
          <Button color="secondary" size="small" onClick={onUpdate}>
            {t('update.reload')}
          </Button>
        }
      />
    </MuiTheme>
  );
}
