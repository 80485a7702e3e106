import { PlatformError, errorCodeFrom, errorMessageFrom, parseRetryAfter } from './errors';
import { attachPrevious, PREVIOUS_HEADER } from './previous-values';
import { buildQueryString, type QueryValue } from './query-string';

/**
 * One HTTP call to `{serverUrl}/api{path}` with the platform's headers (platform-contract.md 1.3),
 * JSON in and out, and one error type. Every request aborts after 30 s by default: a hung
 * connection on a facility network would otherwise stall the sync queue forever.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface TransportConfig {
  serverUrl: string;
  appId: string;
  getToken: () => string | null | undefined;
  fetch?: typeof fetch;
  /** The page the call is made from (X-Origin-URL); defaults to `location.href` in a browser. */
  originUrl?: string | (() => string | undefined);
  functionsVersion?: string | null;
  timeoutMs?: number;
  /**
   * Told of every HTTP answer (any status) as it arrives: the sync engine learns that the server is
   * reachable from any request of the app, not only its own (issue #9.3).
   */
  onAnswer?: (answer: HttpAnswer) => void;
}

export interface HttpAnswer {
  status: number;
  ok: boolean;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON-serialised unless it is FormData (multipart; the browser sets the boundary). */
  body?: unknown;
  /** Headers of this request only (issue #26: the edit times of queued changes); never the platform's own. */
  headers?: Record<string, string>;
}

export type Transport = <T = unknown>(spec: RequestSpec) => Promise<T>;

function currentOrigin(config: TransportConfig): string | undefined {
  const o = config.originUrl;
  if (typeof o === 'function') return o();
  if (typeof o === 'string') return o;
  return typeof window !== 'undefined' && window.location ? window.location.href : undefined;
}

function buildHeaders(config: TransportConfig, multipart: boolean, extra: Record<string, string> = {}): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  // Sent on every call, GET and DELETE included, as the SDK does; multipart lets fetch set its own.
  if (!multipart) headers.set('Content-Type', 'application/json');
  headers.set('Accept', 'application/json');
  headers.set('X-App-Id', String(config.appId));
  const origin = currentOrigin(config);
  if (origin) headers.set('X-Origin-URL', origin);
  const token = config.getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (config.functionsVersion) headers.set('Base44-Functions-Version', config.functionsVersion);
  return headers;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createTransport(config: TransportConfig): Transport {
  const doFetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = `${config.serverUrl.replace(/\/+$/, '')}/api`;

  return async function request<T>(spec: RequestSpec): Promise<T> {
    const multipart = typeof FormData !== 'undefined' && spec.body instanceof FormData;
    const url = `${base}${spec.path}${spec.query ? buildQueryString(spec.query) : ''}`;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);

    let res: Response;
    try {
      res = await doFetch(url, {
        method: spec.method,
        headers: buildHeaders(config, multipart, spec.headers),
        body: spec.body === undefined ? undefined : multipart ? (spec.body as FormData) : JSON.stringify(spec.body),
        signal: controller.signal,
      });
    } catch (err) {
      clearTimeout(timer);
      if (timedOut) {
        throw new PlatformError(`Request timed out after ${timeoutMs / 1000} s`, { code: 'TIMEOUT' });
      }
      const message = err instanceof Error && err.message ? err.message : 'Network Error';
      throw new PlatformError(message, { code: 'NETWORK_ERROR' });
    }

    try {
      config.onAnswer?.({ status: res.status, ok: res.ok });
    } catch {
      // A listener's bug must not fail the request.
    }

    let data: unknown;
    try {
      data = await readBody(res);
    } catch (err) {
      // The body stream can also hang or drop; same rule as a failed connection.
      if (timedOut) throw new PlatformError(`Request timed out after ${timeoutMs / 1000} s`, { code: 'TIMEOUT' });
      throw new PlatformError(err instanceof Error ? err.message : 'Network Error', { code: 'NETWORK_ERROR' });
    } finally {
      clearTimeout(timer);
    }

    if (!res.ok) {
      throw new PlatformError(errorMessageFrom(data, `Request failed with status code ${res.status}`), {
        status: res.status,
        code: errorCodeFrom(data, res.headers.get('x-base44-connector-error')),
        data,
        retryAfterSeconds: parseRetryAfter(res.headers.get('retry-after'), Date.now()),
      });
    }
    attachPrevious(data, res.headers.get(PREVIOUS_HEADER));
    return data as T;
  };
}
