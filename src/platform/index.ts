export { createPlatformClient, type PlatformClient, type PlatformClientConfig, type PublicSettings } from './client';
export { PlatformError } from './errors';
export type { EntityClient, Page, Query, ListV2Options } from './entities';
export { readAppParams, planAppParams, type AppParams } from './app-params';
export { getStoredToken, saveToken, removeToken, storeToken, TOKEN_KEY } from './token-store';
export { DEFAULT_TIMEOUT_MS } from './transport';
