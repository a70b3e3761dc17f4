import { useEffect } from 'react';
import { SWRConfig } from 'swr';
import { ConfirmProvider } from '../components/ConfirmProvider';
import MainLayout from '../layout/MainLayout';
import { probeApi } from '../pwa/connectivity';
import { RealtimeProvider, useRealtimeConnected } from '../realtime/RealtimeProvider';
import MuiTheme from '../theme/MuiTheme';

/**
 * What only a signed-in user needs: MUI's theme, the SWR settings, the realtime socket, the
 * confirmation dialog and the main layout. App.tsx loads this chunk with the first private page, so the login screen
 * never downloads SWR, the realtime client or the layout (issue 25).
 */
export default function SignedIn() {
  return (
    <MuiTheme baseline>
      <SWRConfig value={{ revalidateOnFocus: false, shouldRetryOnError: false }}>
        <RealtimeProvider>
          <ConfirmProvider>
            <ProbeWhenDisconnected />
            <MainLayout />
          </ConfirmProvider>
        </RealtimeProvider>
      </SWRConfig>
    </MuiTheme>
  );
}

/** A dropped socket may mean the API is gone: the offline notice checks (pwa/connectivity.ts). */
function ProbeWhenDisconnected() {
  const connected = useRealtimeConnected();
  useEffect(() => {
    if (!connected) void probeApi();
  }, [connected]);
  return null;
}
