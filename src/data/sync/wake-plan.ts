/**
 * When the engine next wakes (S8/S9), as a pure rule: the earliest of the held-back retry, the
 * next op's backoff and the periodic sync; and, while the server is out of reach but the browser
 * has not said it is offline (a dead uplink, Wi-Fi associated in a dead zone, a page opened with
 * no network: no 'online' event may ever come), a probe — one small request — well before the
 * offline hold would end (up to 60 s). While the change stream is healthy (S18), the periodic sync
 * is a safety net only (every 10 minutes): the stream says when to pull.
 */
export interface WakeState {
  now: number;
  holdUntil: number;
  nextOpAt: number | null;
  visible: boolean;
  reachable: boolean;
  browserOffline: boolean;
  /** S18: the change stream is open and heard from: the periodic pull is only a safety net. */
  streamHealthy?: boolean;
}

export function wakeTimes(s: WakeState, tuning: { periodicMs: number; probeMs: number; safetyNetMs?: number }): { at: number | null; probeAt: number | null } {
  const candidates: number[] = [];
  if (s.holdUntil > s.now) candidates.push(s.holdUntil);
  else if (s.nextOpAt != null) candidates.push(Math.max(s.nextOpAt, s.now));
  if (s.visible) candidates.push(s.now + (s.streamHealthy && tuning.safetyNetMs ? tuning.safetyNetMs : tuning.periodicMs));
  const probeAt = s.now + tuning.probeMs;
  const probe = !s.reachable && !s.browserOffline && s.visible && s.holdUntil > probeAt;
  return { at: candidates.length ? Math.min(...candidates) : null, probeAt: probe ? probeAt : null };
}
