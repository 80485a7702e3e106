/**
 * Issue #24.2: "records of this app changed" as a PostgreSQL notice. Three statement-level
 * triggers on `records` (insert, update, delete) each send one `pg_notify` per app a statement
 * touched, naming the entities it touched. PostgreSQL delivers notices at commit, to every session
 * that LISTENs on the channel (every server instance on one database: sql-client.ts keeps one
 * listening connection per process), and never for a transaction that rolled back. Identical
 * payloads within one transaction are delivered once, so a bulk write of 500 rows is one notice.
 * A statement that changed no row sends nothing (the transition table is empty).
 */
import type { ChangeNotice } from './types';

export const CHANGES_CHANNEL = 'passage_changes';

const FUNCTION = `CREATE OR REPLACE FUNCTION passage_notify_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGES_CHANNEL}', json_build_object('app', app, 'entities', json_agg(DISTINCT entity))::text)
    FROM changed_rows GROUP BY app;
  RETURN NULL;
END $$`;

/** A trigger with a transition table serves one event, so there are three (PostgreSQL 14+: OR REPLACE). */
const trigger = (event: 'INSERT' | 'UPDATE' | 'DELETE') =>
  `CREATE OR REPLACE TRIGGER records_notify_${event.toLowerCase()} AFTER ${event} ON records
     REFERENCING ${event === 'DELETE' ? 'OLD' : 'NEW'} TABLE AS changed_rows
     FOR EACH STATEMENT EXECUTE FUNCTION passage_notify_changes()`;

/** Run by the migration (schema.ts) after `records` exists. */
export const CHANGE_NOTICE_STATEMENTS = [FUNCTION, trigger('INSERT'), trigger('UPDATE'), trigger('DELETE')];

/**
 * A notice's payload → what changed; null for anything else (the channel is ours, but a payload
 * that does not parse must not stop the listener). A `null` payload means the listening connection
 * was lost and re-established, so notices may have been missed: every app (app null) is told that
 * anything may have changed (entities []).
 */
export function parseNotice(payload: string | null): ChangeNotice | null {
  if (payload === null) return { app: null, entities: [] };
  try {
    const value = JSON.parse(payload) as { app?: unknown; entities?: unknown };
    if (typeof value.app !== 'string' || !Array.isArray(value.entities)) return null;
    return { app: value.app, entities: value.entities.filter((e): e is string => typeof e === 'string') };
  } catch {
    return null;
  }
}
