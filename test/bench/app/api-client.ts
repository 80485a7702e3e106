/** The platform API from Node, as a signed-in user (the bench's remote writer and fact checker). */

export interface Api {
  token: string;
  get<T = unknown>(path: string): Promise<T>;
  put<T = unknown>(path: string, body: unknown): Promise<T>;
}

export async function signInApi(baseUrl: string, appId: string, email: string, password: string): Promise<Api> {
  const res = await fetch(`${baseUrl}/api/apps/${appId}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-App-Id': appId },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const { access_token: token } = (await res.json()) as { access_token: string };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-App-Id': appId, Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  return { token, get: (p) => call('GET', p), put: (p, b) => call('PUT', p, b) };
}

/** Every record of an entity through the array list (5,000 a page, contract §7). */
export async function listAll<T = Record<string, unknown>>(api: Api, appId: string, entity: string, fields: string): Promise<T[]> {
  const out: T[] = [];
  for (let skip = 0; ; skip += 5000) {
    const page = await api.get<T[]>(`/apps/${appId}/entities/${entity}?limit=5000&skip=${skip}&fields=${fields}`);
    out.push(...page);
    if (page.length < 5000) return out;
  }
}
