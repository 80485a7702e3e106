import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { App } from './app/app';
import { browserAuthEnvironment } from './app/auth/browser-environment';
import { preloadScreens, shellParts } from './app/screens';
import { installFrameErrorReporting } from './app/tracking/frame-messages';
import { createPlatformClient, getStoredToken, readAppParams, removeToken, storeToken } from './platform';
import { signInUrl, takeVerifier } from './platform/sign-in-code';
import { takeLegacyToken, tokenClaims } from './platform/token-store';
import { registerPwa } from './pwa/register-pwa';
import { createDataContext } from './data/context';
import { db } from './data/db';
import { deviceIdForSignIn, sealNewSignIns } from './data/device-lock';
import { updateReadiness } from './pwa/offline-readiness';
import { afterFirstPage } from './shell-api/first-page';

// Boot (issue #21.1): a token an older version left in clear storage moves into memory (and off the
// disk) before the address is read; then the URL's parameters, which also clean the address bar.
const legacyToken = takeLegacyToken();
const params = readAppParams();
const client = createPlatformClient({
  serverUrl: params.serverUrl,
  appId: params.appId,
  appBaseUrl: params.appBaseUrl,
  functionsVersion: params.functionsVersion,
  getToken: () => getStoredToken(),
  setToken: (token) => storeToken(token),
});
// This device's data context, the one of the page's life: the app's database and, from the first
// render on, the client (online-only calls such as coach approvals use it before sign-in completes).
// The sync runtime fills in the user and the engine at sign-in. Everything below gets this one:
// the screens through <DataProvider> (App), the session, device lock and runtime as an argument.
const data = createDataContext({ db, client });
// Every new token of this page is sealed into the database while it is unlocked (issue #21.1).
sealNewSignIns(data);
// A plain platform's ?access_token= is a sign-in, held in memory: it never opens an existing vault.
if (!params.clearToken) storeToken(params.accessToken ?? legacyToken);
// Passage's server came back with a one-time code: exchanged once, with this tab's verifier.
let signIn: Promise<boolean> | null = null;
const completeSignIn = () =>
  (signIn ??= params.signInCode
    ? deviceIdForSignIn(data)
        .catch(() => null)
        .then((deviceId) => client.auth.exchangeCode({ code: params.signInCode!, codeVerifier: takeVerifier(), deviceId }))
        .then(() => true)
    : Promise.resolve(false));
installFrameErrorReporting();
registerPwa();

const env = browserAuthEnvironment(data, {
  getToken: () => getStoredToken(),
  clearToken: () => removeToken(),
  appBaseUrl: params.appBaseUrl,
  completeSignIn,
  loginUrl: (fromUrl) => signInUrl(params.appBaseUrl, fromUrl),
  sessionIdOf: () => tokenClaims(getStoredToken())?.sid ?? null,
});
// The router's chunk (src/app/app-routes.tsx) comes while start-up asks the server, for a returning
// coach (the lock screen's PIN is typed meanwhile). Not after a sign-in (the first page is most
// likely "Set a PIN", which does not need it).
if (!params.signInCode) void shellParts.AppRoutes.load();

// Every screen's chunk into memory right after the first page is on screen (issue #11.6; the PIN
// screen counts: the chunks then come while the coach types): until the service worker controls
// this page, memory is all a coach who loses the connection has. When it already controls the
// page, the chunks come from its precache, so there is no hurry: idle time. A failed fetch (the
// connection went) is tried again when the browser is back online.
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
    <App data={data} client={client} env={env} slots={{ headerStatus: <shellParts.HeaderStatus /> }} />
  </StrictMode>,
);
