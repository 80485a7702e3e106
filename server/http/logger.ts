/**
 * The server's structured log (issue #25.5): one JSON object per line on stdout, for a log collector
 * (journald, Docker, Loki…): `time` (ISO 8601), `level` (its name), `msg`, and for requests `req_id`,
 * `method`, `route`, `status`, `ms` (request-log.ts). LOG_LEVEL picks the least severe level written
 * (trace, debug, info, warn, error, fatal, silent; default info).
 *
 * What never goes in: request bodies, query strings, tokens, passwords, codes, e-mail addresses.
 * The request log writes only the fields above, so none can get in through it; `redact` is the
 * second line for anything logged with an object: such keys are replaced wherever they appear.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** Keys whose values are never written, at the top level or one or two objects down. */
const SECRET_KEYS = ['authorization', 'cookie', 'password', 'new_password', 'current_password', 'token', 'access_token', 'refresh_token', 'code', 'email', 'key'];
const REDACT = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

/** LOG_LEVEL checked: a typo must not silently turn logging off (or to trace). */
export function logLevelOf(raw: string | undefined): (typeof LOG_LEVELS)[number] {
  const level = (raw || 'info').trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${raw})`);
  return level as (typeof LOG_LEVELS)[number];
}

/**
 * For a person at a terminal (`npm start`, LOG_FORMAT=pretty, the default when stdout is a TTY): each
 * JSON line as `15:04:05 INFO  request GET /api/apps/:appId/entities/:entity 200 12 ms`. The same
 * fields, so nothing is shown that the JSON would not hold.
 */
export function prettyDestination(write: (text: string) => void = (t) => process.stdout.write(t)): DestinationStream {
  return {
    write(line: string) {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line);
      } catch {
        write(line);
        return;
      }
      const { time, level, msg, req_id, method, route, status, ms, ...rest } = o;
      const clock = typeof time === 'string' ? time.slice(11, 19) : '';
      const head = `${clock} ${String(level).toUpperCase().padEnd(5)} ${msg ?? ''}`;
      const req = method ? ` ${method} ${route} ${status} ${ms} ms (${req_id})` : '';
      const more = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
      write(`${head}${req}${more}\n`);
    },
  };
}

/** LOG_FORMAT: `json` (one object a line, for a collector) or `pretty`; default pretty only on a terminal. */
export function logFormatOf(raw: string | undefined, tty: boolean): 'json' | 'pretty' {
  const format = (raw || (tty ? 'pretty' : 'json')).trim().toLowerCase();
  if (format !== 'json' && format !== 'pretty') throw new Error(`LOG_FORMAT must be json or pretty (got ${raw})`);
  return format;
}

/** A JSON logger; `destination` defaults to stdout (tests pass a stream to read what was written). */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: undefined, // no pid/hostname on every line: the collector knows which instance it read
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** A logger that writes nothing: createApp's default, so tests driving app.request() stay quiet. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
