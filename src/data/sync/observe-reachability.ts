import { classifyError } from './classify-error';
import type { SyncTransport } from './types';

/**
 * S9: connectivity is judged by reaching the server, not by navigator.onLine. Wraps a transport so
 * every call reports whether an HTTP answer came back (any status counts, even 500 or 401) or
 * nothing did (status undefined: offline, DNS, refused). A timeout reports nothing: one slow
 * request is that request's problem (its op backs off), not a verdict on the connection.
 */
export function observeReachability(transport: SyncTransport, report: (reachable: boolean) => void): SyncTransport {
  const track =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const result = await fn(...args);
        report(true);
        return result;
      } catch (error) {
        if (classifyError(error).kind !== 'timeout') report((error as { status?: number })?.status !== undefined);
        throw error;
      }
    };
  return {
    create: track(transport.create.bind(transport)),
    bulkCreate: track(transport.bulkCreate.bind(transport)),
    update: track(transport.update.bind(transport)),
    bulkUpdate: track(transport.bulkUpdate.bind(transport)),
    remove: track(transport.remove.bind(transport)),
    fetchMany: track(transport.fetchMany.bind(transport)),
    filter: track(transport.filter.bind(transport)),
    ...(transport.count ? { count: track(transport.count.bind(transport)) } : {}),
    ...(transport.pullScope ? { pullScope: track(transport.pullScope.bind(transport)) } : {}),
    ...(transport.changeFeed ? { changeFeed: track(transport.changeFeed.bind(transport)) } : {}),
    // S18: the stream's failures are judged by the engine's next cycle, not here (live-stream.ts).
    ...(transport.openEvents ? { openEvents: transport.openEvents.bind(transport) } : {}),
    ...(transport.reportExport ? { reportExport: track(transport.reportExport.bind(transport)) } : {}),
  };
}
