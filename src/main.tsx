import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { App } from './app/app';
import { browserAuthEnvironment } from './app/auth/browser-environment';
import { preloadScreens, shellParts } from './app/screens';
import { installFrameErrorReporting } from './app/tracking/frame-messages';
import { createPlatformClient, getStoredToken, readAppParams, removeToken, storeToken } from './platform';
import { registerPwa } from './pwa/register-pwa';
import { setDataContext } from './data/context';
import { updateReadiness } from './pwa/offline-readiness';
import { afterFirstPage } from './app/first-page';

// An interactive sign-in returns with ?access_token= in the address (read before readAppParams
// removes it): only then may the server's key open the device's data without the PIN (issue #14).
const signedInNow = new URLSearchParams(window.location.search).has('access_token');
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

const env = browserAuthEnvironment({ getToken: () => getStoredToken(), clearToken: () => removeToken(), appBaseUrl: params.appBaseUrl, signedInNow });
// The router's chunk (src/app/app-routes.tsx) comes while start-up asks the server, for a coach
// with a stored sign-in. Not after a sign-in (the first page is most likely "Set a PIN", which
// does not need it) nor for a visitor without one (on to the sign-in page).
if (!signedInNow && getStoredToken()) void shellParts.AppRoutes.load();

// Every screen's chunk into memory right after the first page is on screen (issue #11.6; the PIN
// screen of a first sign-in counts: the chunks then come while the coach types): until the service
// worker controls this page, memory is all a coach who loses the connection has. When it already
// controls the page, the chunks come from its precache, so there is no hurry: idle time. A failed
// fetch (the connection went) is tried again when the browser is back online.
async function loadScreens() {
  updateReadiness({ screens: 'loading' });
  const ok = await preloadScreens();
  updateReadiness({ screens: ok ? 'loaded' : 'failed' });
  if (!ok) window.addEventListener('online', () => void loadScreens(), { once: true });
}
afterFirstPage(() => {
  if (navigator.serviceWorker?.controller && 'requestIdleCallback' in window) window.requestIdleCallback(() => void loadScreens(), { timeout: 5000 });
  else setTimeout(() => void loadScreens(), 0);
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={client} env={env} slots={{ headerStatus: <shellParts.HeaderStatus /> }} />
  </StrictMode>,
);
