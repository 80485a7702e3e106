import type { PlatformClientLike, Row, SseMessageLike } from '../platform-like';
import type { EntityName } from '../../../shared/entities';
import type { ExportNotice, ServerNotice, SyncTransport, WriteMeta } from './types';
import { writeHeaders } from './edit-times';
import { SCOPE_PULL_FUNCTION, type ScopePullAnswer, type ScopePullRequest } from './scope';
import { CHANGE_FEED_FUNCTION, type ChangeFeedAnswer, type ChangeFeedRequest } from '../../../shared/change-feed';

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

/** Issue #26: the server function that records a CSV export in the audit. */
export const AUDIT_EXPORT_FUNCTION = 'auditExport';

export function createPlatformTransport(client: PlatformClientLike, selfId: string): SyncTransport {
  const api = (entity: EntityName) => client.entities(entity);
  const isSelf = (entity: EntityName, id: string) => entity === 'User' && id === selfId;

  // Issue #26: the audit's extension headers (edit times, a resolved conflict) on each write.
  const opts = (meta: WriteMeta | undefined) => (meta ? { headers: writeHeaders(meta) } : undefined);

  return {
    create: (entity, body, meta) => api(entity).create(body, opts(meta)),
    bulkCreate: (entity, bodies, meta) => api(entity).bulkCreate(bodies, opts(meta)),
    // PUT me (the own profile) takes no extra headers: the SDK's auth.updateMe has no options.
    update: (entity, id, data, meta) => (isSelf(entity, id) ? (client.auth.updateMe(data) as Promise<Row>) : api(entity).update(id, data, opts(meta))),
    bulkUpdate: (entity, rows, meta) => api(entity).bulkUpdate(rows, opts(meta)),
    remove: async (entity, id, meta) => {
      await api(entity).delete(id, opts(meta));
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
          // Issue #24.1: every change since a cursor in one request; a platform without it answers 404.
          changeFeed: async (request: ChangeFeedRequest) => {
            try {
              return (await client.functions!.invoke(CHANGE_FEED_FUNCTION, request as unknown as Record<string, unknown>)).data as ChangeFeedAnswer;
            } catch (error) {
              if ((error as { status?: number })?.status === 404) return null;
              throw error;
            }
          },
          // Issue #26: a CSV export reported to the audit; a platform without it answers 404.
          reportExport: async (notice: ExportNotice) => {
            try {
              await client.functions!.invoke(AUDIT_EXPORT_FUNCTION, notice as unknown as Record<string, unknown>);
              return true;
            } catch (error) {
              if ((error as { status?: number })?.status === 404) return false;
              throw error;
            }
          },
        }
      : {}),
    // Issue #24.2 (S18): the change stream, as notices; a platform without it answers 404.
    ...(client.events ? { openEvents: (signal: AbortSignal) => noticesOf(client.events!.open(signal)) } : {}),
    // Every real client counts; a small fake may not (then the engine goes without totals).
    ...(typeof api('Participant').count === 'function' ? { count: (entity: EntityName, q?: Record<string, unknown>) => api(entity).count!(q) } : {}),
  };
}

/**
 * S18: `changed` events name what changed; `revoked` says this tablet was revoked; anything else
 * the stream says only shows it is alive.
 */
async function* noticesOf(messages: AsyncIterable<SseMessageLike>): AsyncIterable<ServerNotice> {
  for await (const message of messages) {
    if (message.type === 'event' && message.event === 'revoked') {
      yield { kind: 'revoked' };
      continue;
    }
    if (message.type !== 'event' || message.event !== 'changed') {
      yield { kind: 'alive' };
      continue;
    }
    let entities: string[] = [];
    try {
      const parsed = JSON.parse(message.data) as { entities?: unknown };
      if (Array.isArray(parsed.entities)) entities = parsed.entities.filter((e): e is string => typeof e === 'string');
    } catch {
      // A notice we cannot read still says something changed: pull everything.
    }
    yield { kind: 'changed', entities };
  }
}
