import { useEffect, useMemo, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import {
  AppBar,
  Badge,
  Box,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Toolbar,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { Tooltip } from '../components/Tooltip';
import MenuIcon from '@mui/icons-material/Menu';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { useRealtimeConnected } from '../realtime/RealtimeProvider';
import { useApi } from '../api/swr';
import { MENU_ICONS } from './menu-icons';
import { menuContextOf, visibleMenu, type MenuEntry } from './menu';
import { KeyboardShortcuts } from './KeyboardShortcuts';
import { useConnectionWarning } from './useConnectionWarning';
import { useOwnUserLive } from '../auth/useOwnUserLive';
import { useUnreadChats } from './useUnreadChats';
import { useSlaBreachToasts } from '../sla/useSlaBreachToasts';
import { useAiBudgetToasts } from '../prompts/useAiBudgetToasts';
import { TopBar } from './TopBar';
import { PaymentWatcher, RestrictedGate } from '../billing/PaymentWatcher';

const DRAWER_WIDTH = 250;

/** The private shell: top bar, side menu (2.2) and the routed page. */
export default function MainLayout() {
  const theme = useTheme();
  const { t } = useTranslation();
  const { user, company, plan, restricted } = useAuth();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const wide = useMediaQuery('(min-width:1200px)');
  const initialMenu = company?.settings?.find((s) => s.key === 'initialMenu')?.value;
  const [open, setOpen] = useState(() => !narrow && (initialMenu ? initialMenu === 'open' : wide));
  const location = useLocation();
  useOwnUserLive();
  useSlaBreachToasts();
  useAiBudgetToasts();
  // A restricted session (expired company) reaches only billing: the badges would ask in vain.
  const warning = useConnectionWarning(restricted ? undefined : user?.profile);
  const unreadChats = useUnreadChats(user?.id, Boolean(plan?.useInternalChat) && !restricted);
  const connected = useRealtimeConnected();
  const { data: version } = useApi<{ version: string }>('/version');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname is the trigger: on phones the drawer closes after each navigation
  useEffect(() => {
    if (narrow) setOpen(false);
  }, [narrow, location.pathname]);

  const items = useMemo(() => visibleMenu(menuContextOf({ user, plan, restricted })), [user, plan, restricted]);
  const section = (name: MenuEntry['section']) => items.filter((i) => i.section === name);

  const renderItem = (item: MenuEntry) => {
    const Icon = MENU_ICONS[item.key];
    const icon =
      item.key === 'connections' && warning ? (
        <Badge
          color="warning"
          variant="dot"
          overlap="circular"
          title={t('menu.connectionWarning')}
          aria-label={t('menu.connectionWarning')}
        >
          <Icon />
        </Badge>
      ) : item.key === 'chats' && unreadChats ? (
        <Badge
          color="error"
          variant="dot"
          overlap="circular"
          title={t('menu.unreadChat')}
          aria-label={t('menu.unreadChat')}
        >
          <Icon />
        </Badge>
      ) : (
        <Icon />
      );
    return (
      <ListItemButton
        key={item.key}
        component={NavLink}
        to={item.to}
        end={item.to === '/'}
        sx={{ '&.active': { bgcolor: 'action.selected' } }}
      >
        <ListItemIcon>{icon}</ListItemIcon>
        <ListItemText primary={t(`menu.${item.key}`)} />
      </ListItemButton>
    );
  };

  const drawer = (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar sx={{ justifyContent: 'space-between' }}>
        <Typography variant="h6" color="primary" noWrap>
          {t('appName')}
        </Typography>
        <IconButton aria-label={t('menu.close')} onClick={() => setOpen(false)}>
          <ChevronLeftIcon />
        </IconButton>
      </Toolbar>
      <Divider />
      <List component="nav" dense aria-label={t('menu.navigation')} sx={{ flex: 1, overflowY: 'auto' }}>
        {section('main').map(renderItem)}
        {(section('admin').length > 0 || section('campaigns').length > 0) && (
          <>
            <Divider sx={{ my: 1 }} />
            <ListSubheader>{t('menu.administration')}</ListSubheader>
            {section('campaigns').length > 0 && (
              <ListSubheader sx={{ pl: 3, lineHeight: '32px' }}>{t('menu.campaigns')}</ListSubheader>
            )}
            {section('campaigns').map(renderItem)}
            {section('admin').map(renderItem)}
          </>
        )}
      </List>
      <Typography variant="caption" color="text.secondary" sx={{ p: 1.5 }}>
        {t('menu.version', { version: version?.version ?? '6.0.0' })}
      </Typography>
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', height: '100dvh' }}>
      <AppBar
        position="fixed"
        sx={{
          zIndex: (th) => th.zIndex.drawer + 1,
          ...(open && !narrow && { ml: `${DRAWER_WIDTH}px`, width: `calc(100% - ${DRAWER_WIDTH}px)` }),
        }}
      >
        <Toolbar variant="dense" sx={{ gap: 1 }}>
          {!open && (
            <Tooltip title={t('menu.open')}>
              <IconButton color="inherit" edge="start" aria-label={t('menu.open')} onClick={() => setOpen(true)}>
                <MenuIcon />
              </IconButton>
            </Tooltip>
          )}
          <TopBar />
        </Toolbar>
        {!connected && (
          <Box
            role="status"
            aria-label={t('session.reconnecting')}
            title={t('session.reconnecting')}
            sx={{ height: 3, bgcolor: 'warning.main' }}
          />
        )}
      </AppBar>
      <Drawer
        variant={narrow ? 'temporary' : 'persistent'}
        open={open}
        onClose={() => setOpen(false)}
        sx={{
          width: open && !narrow ? DRAWER_WIDTH : 0,
          flexShrink: 0,
          // on a phone the temporary drawer covers the top bar, so its own close button shows
          ...(narrow && { zIndex: (th) => th.zIndex.drawer + 2 }),
          '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box', zIndex: (th) => th.zIndex.drawer + 2 },
        }}
      >
        {drawer}
      </Drawer>
      <Box
        component="main"
        sx={{
          flex: 1,
          minWidth: 0,
          display: 'flex',
          flexDirection: 'column',
          pt: '48px',
          height: '100dvh',
          overflow: 'hidden',
        }}
      >
        <RestrictedGate>
          <Outlet />
        </RestrictedGate>
        <PaymentWatcher />
      </Box>
      <KeyboardShortcuts />
    </Box>
  );
}
