import type { Transport } from './transport';

/**
 * Integrations and server functions (platform-contract.md 5.4, 5.5). Both take an object of named
 * parameters; a plain string is refused before any request with the exact messages of spec.md 5.
 * Values that are Files/Blobs switch the body to multipart: files as parts, objects as JSON,
 * everything else as strings.
 */
type Params = Record<string, unknown> | FormData;

function hasFile(params: Record<string, unknown>): boolean {
  return typeof Blob !== 'undefined' && Object.values(params).some((v) => v instanceof Blob);
}

export function toRequestBody(params: Params): unknown {
  if (typeof FormData !== 'undefined' && params instanceof FormData) return params;
  const plain = params as Record<string, unknown>;
  if (!hasFile(plain)) return plain;
  const form = new FormData();
  for (const [key, value] of Object.entries(plain)) {
    if (value instanceof Blob) form.append(key, value, value instanceof File ? value.name : 'blob');
    else if (value !== null && typeof value === 'object') form.append(key, JSON.stringify(value));
    else if (value !== undefined) form.append(key, String(value));
  }
  return form;
}

function checkNamed(kind: 'Integration' | 'Function', name: string, params: unknown): void {
  if (typeof params === 'string') {
    throw new Error(`${kind} ${name} must receive an object with named parameters, received: ${params}`);
  }
}

export type IntegrationEndpoint = (params: Params) => Promise<unknown>;
export type IntegrationPackage = Record<string, IntegrationEndpoint>;
export interface CustomIntegrations {
  call(
    slug: string,
    operationId: string,
    params?: { pathParams?: Record<string, unknown>; queryParams?: Record<string, unknown>; [k: string]: unknown },
  ): Promise<unknown>;
}
export type Integrations = Record<string, IntegrationPackage> & { custom: CustomIntegrations };

export function createIntegrations(request: Transport, appId: string): Integrations {
  const base = `/apps/${appId}`;
  const custom: CustomIntegrations = {
    async call(slug, operationId, params = {}) {
      if (!slug?.trim()) throw new Error('Integration slug is required and cannot be empty');
      if (!operationId?.trim()) throw new Error('Operation ID is required and cannot be empty');
      const { pathParams, queryParams, ...rest } = params;
      return request({
        method: 'POST',
        path: `${base}/integrations/custom/${slug}/${operationId}`,
        body: { ...rest, path_params: pathParams, query_params: queryParams },
      });
    },
  };
  const packageFor = (pkg: string): IntegrationPackage =>
    new Proxy({} as IntegrationPackage, {
      get(_target, endpoint) {
        if (typeof endpoint !== 'string') return undefined;
        return async (params: Params) => {
          checkNamed('Integration', endpoint, params);
          const path =
            pkg === 'Core'
              ? `${base}/integration-endpoints/Core/${endpoint}`
              : `${base}/integration-endpoints/installable/${pkg}/integration-endpoints/${endpoint}`;
          return request({ method: 'POST', path, body: toRequestBody(params) });
        };
      },
    });
  return new Proxy({ custom } as Integrations, {
    get(target, pkg) {
      if (pkg === 'custom') return target.custom;
      // `then` must stay undefined or `await client.integrations` would treat this as a promise.
      if (typeof pkg !== 'string' || pkg === 'then' || pkg.startsWith('_')) return undefined;
      return packageFor(pkg);
    },
  });
}

export interface Functions {
  invoke(name: string, params: Params): Promise<{ data: unknown }>;
}

export function createFunctions(request: Transport, appId: string): Functions {
  return {
    async invoke(name, params) {
      checkNamed('Function', name, params);
      const data = await request({ method: 'POST', path: `/apps/${appId}/functions/${name}`, body: toRequestBody(params) });
      // The SDK hands back the whole response with the payload in `.data`; callers keep that shape.
      return { data };
    },
  };
}
