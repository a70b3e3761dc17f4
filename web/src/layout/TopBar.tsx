import { lazy, Suspense, useState } from 'react';
import {
  Box,
  Divider,
  IconButton,
  ListItemIcon,
  ListSubheader,
  Menu,
  MenuItem,
  Popover,
  Stack,
  Typography,
} from '@mui/material';
import { Tooltip } from '../components/Tooltip';
import AccountCircle from '@mui/icons-material/AccountCircle';
import Brightness4Icon from '@mui/icons-material/Brightness4';
import Brightness7Icon from '@mui/icons-material/Brightness7';
import RefreshIcon from '@mui/icons-material/Refresh';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import LogoutIcon from '@mui/icons-material/Logout';
import EditIcon from '@mui/icons-material/Edit';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import SearchIcon from '@mui/icons-material/Search';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { useTranslation } from 'react-i18next';
import { can } from '#shared/permissions';
import { LANGUAGES, type Language } from '#shared/constants';
import { useAuth } from '../auth/AuthProvider';
import { useThemeMode } from '../theme/ThemeModeProvider';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { LanguageMenu } from '../components/LanguageMenu';
import { useLanguageChoice } from '../components/useLanguageChoice';
import { usePhone } from '../components/usePhone';
import { prefs } from '../lib/preferences';
import { formatDate } from '../lib/format';
import { MountWhenOpened } from '../components/MountWhenOpened';
import { NotificationsPopover } from './NotificationsPopover';
import { ChatsPopover } from '../chats/ChatsPopover';
import { StatusMenu } from '../presence/StatusMenu';
import { openShortcutsHelp } from './KeyboardShortcuts';
import { ariaKeys } from '../keyboard/shortcuts';

// the announcements button is not needed to show a page: its code and strings come right after it shows
const AnnouncementsPopover = lazy(() =>
  import('../announcements/AnnouncementsPopover').then((m) => ({ default: m.AnnouncementsPopover })),
);
const UserModal = lazy(() => import('../users/UserModal').then((m) => ({ default: m.UserModal })));
// the slider's code loads when the volume popover first opens (issue 25)
const VolumeSlider = lazy(() => import('./VolumeSlider'));

/** The top bar of attendance.md 2.10. */
export function TopBar() {
  const { t } = useTranslation();
  const { user, company, logout, setUser } = useAuth();
  const { mode, toggle } = useThemeMode();
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const [profileAnchor, setProfileAnchor] = useState<HTMLElement | null>(null);
  const [volumeAnchor, setVolumeAnchor] = useState<HTMLElement | null>(null);
  const [moreAnchor, setMoreAnchor] = useState<HTMLElement | null>(null);
  const [volume, setVolume] = useState(prefs.volume);
  const [editing, setEditing] = useState(false);
  // on a phone refresh, volume, theme and language fold into one overflow menu so the bar fits
  const phone = usePhone();
  const setLanguage = (lang: Language) => {
    api.post(`/users/set-language/${lang}`).catch(toastError);
  };
  const language = useLanguageChoice(setLanguage);
  if (!user) return null;
  const isAdmin = can(user.profile, 'dashboard:view');
  const dueDate = company?.dueDate ?? user.company?.dueDate;
  const refresh = () => void mutate(() => true);
  const themeLabel = mode === 'dark' ? t('topbar.themeLight') : t('topbar.themeDark');
  const themeIcon = mode === 'dark' ? <Brightness7Icon /> : <Brightness4Icon />;
  const volumeIcon = volume > 0 ? <VolumeUpIcon /> : <VolumeOffIcon />;

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
        <StatusMenu admin={user.profile === 'admin'} />
        <Tooltip title={t('topbar.searchMessages')}>
          <IconButton color="inherit" aria-label={t('topbar.searchMessages')} onClick={() => void navigate('/search')}>
            <SearchIcon />
          </IconButton>
        </Tooltip>
        <NotificationsPopover />
        <ChatsPopover />
        <Suspense fallback={null}>
          <AnnouncementsPopover />
        </Suspense>
        {phone ? (
          <Tooltip title={t('topbar.more')}>
            <IconButton
              color="inherit"
              aria-label={t('topbar.more')}
              aria-haspopup="menu"
              onClick={(e) => setMoreAnchor(e.currentTarget)}
            >
              <MoreVertIcon />
            </IconButton>
          </Tooltip>
        ) : (
          <>
            <Tooltip title={t('topbar.refresh')}>
              <IconButton color="inherit" aria-label={t('topbar.refresh')} onClick={refresh}>
                <RefreshIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('topbar.volume')}>
              <IconButton
                color="inherit"
                aria-label={t('topbar.volume')}
                onClick={(e) => setVolumeAnchor(e.currentTarget)}
              >
                {volumeIcon}
              </IconButton>
            </Tooltip>
          </>
        )}
        <Popover
          open={Boolean(volumeAnchor)}
          anchorEl={volumeAnchor}
          onClose={() => setVolumeAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        >
          <Box sx={{ width: 180, px: 2, py: 1 }}>
            <Suspense fallback={null}>
              <VolumeSlider
                label={t('topbar.volume')}
                value={volume}
                onChange={(value) => {
                  setVolume(value);
                  prefs.setVolume(value);
                }}
              />
            </Suspense>
          </Box>
        </Popover>
        {phone ? (
          <Menu anchorEl={moreAnchor} open={Boolean(moreAnchor)} onClose={() => setMoreAnchor(null)}>
            <MenuItem
              onClick={() => {
                setMoreAnchor(null);
                refresh();
              }}
            >
              <ListItemIcon>
                <RefreshIcon fontSize="small" />
              </ListItemIcon>
              {t('topbar.refresh')}
            </MenuItem>
            <MenuItem
              onClick={() => {
                // the slider opens where the overflow menu was
                setVolumeAnchor(moreAnchor);
                setMoreAnchor(null);
              }}
            >
              <ListItemIcon>{volumeIcon}</ListItemIcon>
              {t('topbar.volume')}
            </MenuItem>
            <MenuItem
              onClick={() => {
                setMoreAnchor(null);
                toggle();
              }}
            >
              <ListItemIcon>{themeIcon}</ListItemIcon>
              {themeLabel}
            </MenuItem>
            <Divider />
            <ListSubheader>{t('topbar.language')}</ListSubheader>
            {LANGUAGES.map((lang) => (
              <MenuItem
                key={lang}
                lang={lang}
                selected={language.current === lang}
                onClick={() => {
                  setMoreAnchor(null);
                  language.choose(lang);
                }}
              >
                {t(`languages.${lang}`)}
              </MenuItem>
            ))}
          </Menu>
        ) : (
          <>
            <Tooltip title={themeLabel}>
              <IconButton color="inherit" aria-label={themeLabel} onClick={toggle}>
                {themeIcon}
              </IconButton>
            </Tooltip>
            <LanguageMenu onChange={setLanguage} />
          </>
        )}
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
            aria-keyshortcuts={ariaKeys('help')}
            onClick={() => {
              setProfileAnchor(null);
              openShortcutsHelp();
            }}
          >
            <ListItemIcon />
            {t('topbar.shortcuts')}
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
      <MountWhenOpened open={editing}>
        <UserModal
          open={editing}
          userId={user.id}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            if (saved.id === user.id) setUser({ ...user, ...saved });
          }}
        />
      </MountWhenOpened>
    </>
  );
}
