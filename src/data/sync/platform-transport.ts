import type { PlatformClientLike, Row } from '../platform-like';
import type { EntityName } from '../../../shared/entities';
import type { SyncTransport } from './types';
import { SCOPE_PULL_FUNCTION, type ScopePullAnswer, type ScopePullRequest } from './scope';

/**
 * The engine's transport over the platform client (src/platform). Errors pass through as the
 * client's PlatformError (status, code, retryAfterSeconds), which classifyError reads.
 *
 * The signed-in user's own User record goes through `auth.me` / `auth.updateMe` (spec 7.3 "Submit
 * profile": PUT me): a coach or a not-yet-approved user may not update User by id, and may only
 * read id, email and full_name of other users.
 */

/** Ids per `$in` fetch: keeps the query string well under common 8 KB URL limits. */
const IDS_PER_FETCH = 100;

export function createPlatformTransport(client: PlatformClientLike, selfId: string): SyncTransport {
  const api = (entity: EntityName) => client.entities(entity);
  const isSelf = (entity: EntityName, id: string) => entity === 'User' && id === selfId;

  return {
    create: (entity, body) => api(entity).create(body),
    bulkCreate: (entity, bodies) => api(entity).bulkCreate(bodies),
    update: (entity, id, data) => (isSelf(entity, id) ? (client.auth.updateMe(data) as Promise<Row>) : api(entity).update(id, data)),
    bulkUpdate: (entity, rows) => api(entity).bulkUpdate(rows),
    remove: async (entity, id) => {
      await api(entity).delete(id);
    },
    async fetchMany(entity, ids) {
      const rows: Row[] = [];
      const others = ids.filter((id) => !isSelf(entity, id));
      if (others.length < ids.length) rows.push((await client.auth.me()) as Row);
      for (let i = 0; i < others.length; i += IDS_PER_FETCH) {
        const chunk = others.slice(i, i + IDS_PER_FETCH);
        rows.push(...(await api(entity).filter({ id: { $in: chunk } }, 'id', chunk.length)));
      }
      return rows;
    },
    filter: (entity, q, sort, limit, skip, fields) => api(entity).filter(q, sort, limit, skip, fields),
    // Issue #22.5: Passage's server answers for the whole scope in one request; a platform without
    // the function answers 404 (null: the engine pulls entity by entity from then on).
    ...(client.functions
      ? {
          pullScope: async (request: ScopePullRequest) => {
            try {
              return (await client.functions!.invoke(SCOPE_PULL_FUNCTION, request as unknown as Record<string, unknown>)).data as ScopePullAnswer;
            } catch (error) {
              if ((error as { status?: number })?.status === 404) return null;
              throw error;
            }
          },
        }
      : {}),
    // Every real client counts; a small fake may not (then the engine goes without totals).
    ...(typeof api('Participant').count === 'function' ? { count: (entity: EntityName, q?: Record<string, unknown>) => api(entity).count!(q) } : {}),
  };
}
