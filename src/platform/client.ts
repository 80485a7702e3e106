import { createAuthClient, type AuthClient } from './auth';
import { createEntityClient, type EntityClient } from './entities';
import { createEventsClient, type EventsClient } from './events';
import { createFunctions, createIntegrations, type Functions, type Integrations } from './named-params';
import { createTransport, type HttpAnswer, type TransportConfig } from './transport';
import type { EntityTypes, User } from '../../shared/entities';

/**
 * Passage's typed client of the platform (platform-contract.md). One transport carries every call;
 * the modules only shape paths and bodies. Failures are `PlatformError`s; nothing here toasts,
 * redirects on its own or touches Dexie.
 */
export interface PlatformClientConfig extends TransportConfig {
  appBaseUrl?: string;
  /** Receives the token of a successful `auth.login` (and `null` after a 401 login). */
  setToken?: (token: string | null) => void;
  navigate?: (url: string) => void;
}

/** A record as the platform returns it: known fields typed, any other field allowed. */
export type PlatformRecord<T> = T & Record<string, unknown>;

export interface PublicSettings {
  id: string;
  public_settings: string;
  [key: string]: unknown;
}

export interface PlatformClient {
  readonly appId: string;
  entities<N extends keyof EntityTypes>(name: N): EntityClient<PlatformRecord<EntityTypes[N]>>;
  entities<T = PlatformRecord<{ id: string }>>(name: string): EntityClient<T>;
  auth: AuthClient<PlatformRecord<User>>;
  getPublicSettings(): Promise<PublicSettings>;
  appLogs: { logUserInApp(pageName: string): Promise<void> };
  integrations: Integrations;
  functions: Functions;
  /** Issue #24.2: Passage's change stream (`GET …/events`); a plain platform answers it 404. */
  events: EventsClient;
  /** Calls `listener` on every HTTP answer of this client (any status); returns the unsubscribe. */
  onAnswer(listener: (answer: HttpAnswer) => void): () => void;
}

export function createPlatformClient(config: PlatformClientConfig): PlatformClient {
  const listeners = new Set<(answer: HttpAnswer) => void>();
  const withAnswers: TransportConfig = {
    ...config,
    onAnswer: (answer) => {
      config.onAnswer?.(answer);
      for (const listener of listeners) listener(answer);
    },
  };
  const request = createTransport(withAnswers);
  const { appId } = config;
  const cache = new Map<string, EntityClient<unknown>>();

  return {
    appId,
    entities(name: string) {
      let entity = cache.get(name);
      if (!entity) {
        entity = createEntityClient(request, appId, name);
        cache.set(name, entity);
      }
      return entity as EntityClient<never>;
    },
    auth: createAuthClient<PlatformRecord<User>>(request, {
      appId,
      appBaseUrl: config.appBaseUrl,
      setToken: config.setToken,
      navigate: config.navigate,
    }),
    getPublicSettings: () => request({ method: 'GET', path: `/apps/public/prod/public-settings/by-id/${appId}` }),
    appLogs: {
      // The SDK does not encode the page name; a space still travels as %20.
      logUserInApp: async (pageName) => {
        await request({ method: 'POST', path: `/app-logs/${appId}/log-user-in-app/${pageName.replace(/ /g, '%20')}` });
      },
    },
    integrations: createIntegrations(request, appId),
    functions: createFunctions(request, appId),
    events: createEventsClient(withAnswers),
    onAnswer(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
