import { useState } from 'react';
import {
  Box,
  IconButton,
  ListItemIcon,
  Menu,
  MenuItem,
  Popover,
  Slider,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import AccountCircle from '@mui/icons-material/AccountCircle';
import Brightness4Icon from '@mui/icons-material/Brightness4';
import Brightness7Icon from '@mui/icons-material/Brightness7';
import RefreshIcon from '@mui/icons-material/Refresh';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import LogoutIcon from '@mui/icons-material/Logout';
import EditIcon from '@mui/icons-material/Edit';
import { useSWRConfig } from 'swr';
import { useTranslation } from 'react-i18next';
import { can } from '#shared/permissions';
import { VOLUME_STEP, type Language } from '#shared/constants';
import { useAuth } from '../auth/AuthProvider';
import { useThemeMode } from '../theme/ThemeModeProvider';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { LanguageMenu } from '../components/LanguageMenu';
import { prefs } from '../lib/preferences';
import { formatDate } from '../lib/format';
import { UserModal } from '../users/UserModal';
import { NotificationsPopover } from './NotificationsPopover';
import { AnnouncementsPopover } from '../announcements/AnnouncementsPopover';
import { ChatsPopover } from '../chats/ChatsPopover';

/** The top bar of attendance.md 2.10. */
export function TopBar() {
  const { t } = useTranslation();
  const { user, company, logout, setUser } = useAuth();
  const { mode, toggle } = useThemeMode();
  const { mutate } = useSWRConfig();
  const [profileAnchor, setProfileAnchor] = useState<HTMLElement | null>(null);
  const [volumeAnchor, setVolumeAnchor] = useState<HTMLElement | null>(null);
  const [volume, setVolume] = useState(prefs.volume);
  const [editing, setEditing] = useState(false);
  if (!user) return null;
  const isAdmin = can(user.profile, 'dashboard:view');
  const dueDate = company?.dueDate ?? user.company?.dueDate;

  const setLanguage = (lang: Language) => {
    api.post(`/users/set-language/${lang}`).catch(toastError);
  };

  return (
    <>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body1" noWrap component="p">
          {t('topbar.greeting', { name: user.name, company: company?.name ?? user.company?.name ?? '' })}
          {isAdmin && dueDate && (
            <Typography
              component="span"
              variant="body2"
              sx={{ ml: 1, opacity: 0.85, display: { xs: 'none', md: 'inline' } }}
            >
              {t('topbar.dueDate', { date: formatDate(dueDate) })}
            </Typography>
          )}
        </Typography>
      </Box>
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <NotificationsPopover />
        <ChatsPopover />
        <AnnouncementsPopover />
        <Tooltip title={t('topbar.refresh')}>
          <IconButton color="inherit" aria-label={t('topbar.refresh')} onClick={() => void mutate(() => true)}>
            <RefreshIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('topbar.volume')}>
          <IconButton
            color="inherit"
            aria-label={t('topbar.volume')}
            onClick={(e) => setVolumeAnchor(e.currentTarget)}
            sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
          >
            {volume > 0 ? <VolumeUpIcon /> : <VolumeOffIcon />}
          </IconButton>
        </Tooltip>
        <Popover
          open={Boolean(volumeAnchor)}
          anchorEl={volumeAnchor}
          onClose={() => setVolumeAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        >
          <Box sx={{ width: 180, px: 2, py: 1 }}>
            <Slider
              aria-label={t('topbar.volume')}
              min={0}
              max={1}
              step={VOLUME_STEP}
              value={volume}
              valueLabelDisplay="auto"
              onChange={(_, v) => {
                const value = Array.isArray(v) ? v[0] : v;
                setVolume(value);
                prefs.setVolume(value);
              }}
            />
          </Box>
        </Popover>
        <Tooltip title={mode === 'dark' ? t('topbar.themeLight') : t('topbar.themeDark')}>
          <IconButton
            color="inherit"
            aria-label={mode === 'dark' ? t('topbar.themeLight') : t('topbar.themeDark')}
            onClick={toggle}
          >
            {mode === 'dark' ? <Brightness7Icon /> : <Brightness4Icon />}
          </IconButton>
        </Tooltip>
        <LanguageMenu onChange={setLanguage} />
        <Tooltip title={t('topbar.profile')}>
          <IconButton
            color="inherit"
            aria-label={t('topbar.profile')}
            onClick={(e) => setProfileAnchor(e.currentTarget)}
          >
            <AccountCircle />
          </IconButton>
        </Tooltip>
        <Menu anchorEl={profileAnchor} open={Boolean(profileAnchor)} onClose={() => setProfileAnchor(null)}>
          <MenuItem
            onClick={() => {
              setProfileAnchor(null);
              setEditing(true);
            }}
          >
            <ListItemIcon>
              <EditIcon fontSize="small" />
            </ListItemIcon>
            {t('topbar.editProfile')}
          </MenuItem>
          <MenuItem
            onClick={() => {
              setProfileAnchor(null);
              void logout();
            }}
          >
            <ListItemIcon>
              <LogoutIcon fontSize="small" />
            </ListItemIcon>
            {t('topbar.logout')}
          </MenuItem>
        </Menu>
      </Stack>
      <UserModal
        open={editing}
        userId={user.id}
        onClose={() => setEditing(false)}
        onSaved={(saved) => {
          if (saved.id === user.id) setUser({ ...user, ...saved });
        }}
      />
    </>
  );
}
