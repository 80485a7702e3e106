import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { App } from './app/app';
import { browserAuthEnvironment } from './app/auth/browser-environment';
import { createAppRouter } from './app/routes';
import { installFrameErrorReporting } from './app/tracking/frame-messages';
import { createPlatformClient, getStoredToken, readAppParams, removeToken, storeToken } from './platform';
import { registerPwa } from './pwa/register-pwa';
import { SyncIndicator } from './pwa/sync-indicator';
import { setDataContext } from './data/context';

// Boot: URL params first (they capture ?access_token= and clean the address bar), then the
// client, error reporting to a hosting frame, the service worker and the app.
const params = readAppParams();
const client = createPlatformClient({
  serverUrl: params.serverUrl,
  appId: params.appId,
  appBaseUrl: params.appBaseUrl,
  functionsVersion: params.functionsVersion,
  getToken: () => getStoredToken(),
  setToken: (token) => storeToken(token),
});
// Online-only calls (data/online: coach approvals) use the same client from the first render on,
// before sign-in completes and the sync runtime starts.
setDataContext({ client });
installFrameErrorReporting();
registerPwa();

const env = browserAuthEnvironment({ getToken: () => getStoredToken(), clearToken: () => removeToken(), appBaseUrl: params.appBaseUrl });
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={client} env={env} router={router} slots={{ headerStatus: <SyncIndicator /> }} />
  </StrictMode>,
);
