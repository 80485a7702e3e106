/**
 * The Store's sessions, sign-in codes and devices (issue #21): `auth_sessions`, `sign_in_codes`,
 * `devices` and `device_key_releases` (schema.ts). Spread into the Store by postgres-store.ts, which
 * passes its `now` and `mapErrors` (PostgreSQL errors → StoreError). The store only keeps bytes:
 * wrapping device keys is server/auth/device-keys.ts.
 */
import { isoAt } from './clock';
import type { SqlClient, SqlExecutor } from './sql-client';
import type { AuthRecord, AuthSession, DeviceRecord, EntityRecord, SignInCode, Store } from './types';

export type DeviceSqlMethods = Pick<
  Store,
  | 'createSession'
  | 'getSession'
  | 'revokeSessions'
  | 'revokeUserSessions'
  | 'putSignInCode'
  | 'takeSignInCode'
  | 'releaseDeviceKey'
  | 'rotateUserDeviceKeys'
  | 'getDevice'
  | 'touchDevice'
  | 'listDevices'
  | 'revokeDevices'
  | 'tokenStanding'
>;

export interface DeviceSqlContext {
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Runs the work, turning PostgreSQL errors into StoreErrors (postgres-store.ts). */
  mapErrors: <T>(work: () => Promise<T>) => Promise<T>;
}

/** bigint columns arrive as strings from pg; epoch seconds fit a double exactly. */
const sessionOf = (row: AuthSession): AuthSession => ({ ...row, auth_time: Number(row.auth_time) });
const codeOf = (row: SignInCode): SignInCode => ({ ...row, auth_time: Number(row.auth_time), token_version: Number(row.token_version) });
const bytes = (value: Uint8Array | null) => (value ? new Uint8Array(value) : null);
const deviceOf = (row: DeviceRecord): DeviceRecord => ({
  ...row,
  key_wrapped: new Uint8Array(row.key_wrapped),
  previous_wrapped: bytes(row.previous_wrapped),
});
const DEVICE_COLUMNS = `device_id, user_id, key_wrapped, key_released, previous_wrapped, created_date, last_seen_date,
  last_release_date, revoked_date, revoked_reason, revoke_mode`;

/** Advisory transaction lock on a name (per user, per device): released at commit or rollback. */
const lockName = (tx: SqlExecutor, name: string) => tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);

export function deviceSql(sql: SqlClient, { now, mapErrors }: DeviceSqlContext): DeviceSqlMethods {
  return {
    createSession: (app, session) =>
      mapErrors(async () => {
        await sql.query(
          `INSERT INTO auth_sessions (app, sid, user_id, device_id, auth_time, created_date) VALUES ($1, $2, $3, $4, $5, $6)`,
          [app, session.sid, session.user_id, session.device_id, session.auth_time, isoAt(now())],
        );
      }),

    getSession: (app, sid) =>
      mapErrors(async () => {
        const rows = await sql.query<AuthSession>(
          `SELECT sid, user_id, device_id, auth_time, created_date, revoked_date, revoked_reason FROM auth_sessions WHERE app = $1 AND sid = $2`,
          [app, String(sid)],
        );
        return rows[0] ? sessionOf(rows[0]) : null;
      }),

    revokeSessions: (app, sids, reason, userId) =>
      mapErrors(async () => {
        const rows = await sql.query(
          `UPDATE auth_sessions SET revoked_date = $3, revoked_reason = $4
           WHERE app = $1 AND sid = ANY($2::text[]) AND revoked_date IS NULL AND ($5::text IS NULL OR user_id = $5) RETURNING sid`,
          [app, sids.map(String), isoAt(now()), reason, userId ?? null],
        );
        return rows.length;
      }),

    revokeUserSessions: (app, userId, reason) =>
      mapErrors(async () => {
        const rows = await sql.query(
          `UPDATE auth_sessions SET revoked_date = $3, revoked_reason = $4 WHERE app = $1 AND user_id = $2 AND revoked_date IS NULL RETURNING sid`,
          [app, String(userId), isoAt(now()), reason],
        );
        return rows.length;
      }),

    putSignInCode: (app, code) =>
      mapErrors(async () => {
        await sql.query(`DELETE FROM sign_in_codes WHERE app = $1 AND expires_date < $2`, [app, isoAt(now())]);
        await sql.query(
          `INSERT INTO sign_in_codes (app, code_hash, user_id, challenge, auth_time, token_version, expires_date) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [app, code.code_hash, code.user_id, code.challenge, code.auth_time, code.token_version, code.expires_date],
        );
      }),

    // One statement: a second UPDATE of the row waits for the first and then sees used = true.
    takeSignInCode: (app, codeHash) =>
      mapErrors(async () => {
        const rows = await sql.query<SignInCode>(
          `UPDATE sign_in_codes SET used = true WHERE app = $1 AND code_hash = $2 AND used = false
           RETURNING code_hash, user_id, challenge, auth_time, token_version, expires_date`,
          [app, String(codeHash)],
        );
        return rows[0] ? codeOf(rows[0]) : null;
      }),

    releaseDeviceKey: (app, release, change) =>
      mapErrors(() =>
        sql.transaction(async (tx) => {
          // The user first, then the device: every release takes them in this order, so none waits
          // in a circle; the user lock makes the rate limit exact, the device lock the registration.
          await lockName(tx, `device-release\n${app}\n${release.userId}`);
          await lockName(tx, `device\n${app}\n${release.deviceId}`);
          const found = await tx.query<DeviceRecord>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE app = $1 AND device_id = $2`, [app, release.deviceId]);
          const recent = await tx.query<{ user_n: number; device_n: number }>(
            `SELECT count(*)::int AS user_n, (count(*) FILTER (WHERE device_id = $4))::int AS device_n
               FROM device_key_releases WHERE app = $1 AND user_id = $2 AND released_date > $3`,
            [app, release.userId, release.since, release.deviceId],
          );
          const keys = change(found[0] ? deviceOf(found[0]) : null, { user: Number(recent[0].user_n), device: Number(recent[0].device_n) });
          const at = isoAt(now());
          const rows = await tx.query<DeviceRecord>(
            `INSERT INTO devices (app, device_id, user_id, key_wrapped, key_released, previous_wrapped, created_date, last_seen_date, last_release_date)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)
             ON CONFLICT (app, device_id) DO UPDATE SET key_wrapped = $4, key_released = $5, previous_wrapped = $6,
               last_seen_date = $7, last_release_date = $7
             RETURNING ${DEVICE_COLUMNS}`,
            [app, release.deviceId, release.userId, keys.key_wrapped, keys.key_released, keys.previous_wrapped, at],
          );
          await tx.query(`INSERT INTO device_key_releases (app, device_id, user_id, released_date, source) VALUES ($1, $2, $3, $4, $5)`, [
            app,
            release.deviceId,
            release.userId,
            at,
            release.source.slice(0, 64),
          ]);
          return deviceOf(rows[0]);
        }),
      ),

    rotateUserDeviceKeys: (app, userId, change) =>
      mapErrors(() =>
        sql.transaction(async (tx) => {
          await lockName(tx, `device-release\n${app}\n${userId}`);
          const devices = await tx.query<DeviceRecord>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE app = $1 AND user_id = $2 FOR UPDATE`, [app, userId]);
          for (const device of devices.map(deviceOf)) {
            const keys = change(device);
            await tx.query(`UPDATE devices SET key_wrapped = $3, key_released = $4, previous_wrapped = $5 WHERE app = $1 AND device_id = $2`, [
              app,
              device.device_id,
              keys.key_wrapped,
              keys.key_released,
              keys.previous_wrapped,
            ]);
          }
          return devices.length;
        }),
      ),

    getDevice: (app, deviceId) =>
      mapErrors(async () => {
        const rows = await sql.query<DeviceRecord>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE app = $1 AND device_id = $2`, [app, String(deviceId)]);
        return rows[0] ? deviceOf(rows[0]) : null;
      }),

    touchDevice: (app, deviceId) =>
      mapErrors(async () => {
        await sql.query(`UPDATE devices SET last_seen_date = $3 WHERE app = $1 AND device_id = $2`, [app, String(deviceId), isoAt(now())]);
      }),

    listDevices: (app, userId) =>
      mapErrors(async () => {
        const rows = await sql.query<DeviceRecord>(
          `SELECT ${DEVICE_COLUMNS} FROM devices WHERE app = $1 AND ($2::text IS NULL OR user_id = $2) ORDER BY created_date DESC, device_id DESC`,
          [app, userId ?? null],
        );
        return rows.map(deviceOf);
      }),

    revokeDevices: (app, target, mode, reason) =>
      mapErrors(async () => {
        const [column, value] = 'deviceId' in target ? ['device_id', target.deviceId] : ['user_id', target.userId];
        const rows = await sql.query(
          `UPDATE devices SET revoked_date = COALESCE(revoked_date, $3), revoked_reason = $4,
             revoke_mode = CASE WHEN revoke_mode = 'erase' THEN 'erase' ELSE $5 END
           WHERE app = $1 AND ${column} = $2 RETURNING device_id`,
          [app, String(value), isoAt(now()), reason, mode],
        );
        return rows.length;
      }),

    // One round trip for every open stream's tick: scalar sub-selects, each on a primary key.
    tokenStanding: (app, token) =>
      mapErrors(async () => {
        const rows = await sql.query<{ device: string | null; session: string | null; user_data: string | null; auth_data: string | null }>(
          `SELECT
             (SELECT json_build_object('user_id', user_id, 'revoked_date', revoked_date, 'revoke_mode', revoke_mode)::text
                FROM devices WHERE app = $1 AND device_id = $2) AS device,
             (SELECT json_build_object('user_id', user_id, 'revoked_date', revoked_date)::text
                FROM auth_sessions WHERE app = $1 AND sid = $3) AS session,
             u.data::text AS user_data,
             (SELECT a.data::text FROM auth_records a WHERE a.app = $1 AND a.email = lower(u.data->>'email')) AS auth_data
           FROM (SELECT 1) AS one
           LEFT JOIN records u ON u.app = $1 AND u.entity = 'User' AND u.id = $4`,
          [app, token.deviceId, token.sessionId, String(token.userId)],
        );
        const row = rows[0];
        const json = <T>(text: string | null | undefined): T | null => (text ? (JSON.parse(text) as T) : null);
        return {
          device: json<Pick<DeviceRecord, 'user_id' | 'revoked_date' | 'revoke_mode'>>(row?.device),
          session: json<Pick<AuthSession, 'user_id' | 'revoked_date'>>(row?.session),
          user: json<EntityRecord>(row?.user_data),
          auth: json<AuthRecord>(row?.auth_data),
        };
      }),
  };
}
