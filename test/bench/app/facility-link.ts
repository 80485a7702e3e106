/**
 * The facility link of issue #11, in one place: what a coach's tablet gets inside a facility
 * (a shared, often cellular uplink). Every "facility link" row of `npm run bench` runs through a
 * throttling proxy (delay-proxy.ts) with these figures, the online-only baseline included.
 */
export interface LinkProfile {
  /** Round trip per request, split evenly between the way up and the way down. */
  roundTripMs: number;
  /** Bandwidth server → tablet, bits per second, shared by every connection on the link. */
  downBitsPerSecond: number;
  /** Bandwidth tablet → server, bits per second, shared likewise. */
  upBitsPerSecond: number;
}

export const FACILITY_LINK: LinkProfile = {
  roundTripMs: 300,
  downBitsPerSecond: 1_000_000,
  upBitsPerSecond: 384_000,
};

export const describeLink = (l: LinkProfile) =>
  `${l.downBitsPerSecond / 1e6} Mbps down / ${l.upBitsPerSecond / 1e3} kbps up / ${l.roundTripMs} ms round trip`;

/** The goals of issue #11's table for the facility link (MB = 2^20 bytes). */
export const FACILITY_GOALS = {
  firstVisitMs: 4_000,
  participantsUsableMs: 20_000,
  firstSyncBytes: 4 * 1024 * 1024,
  pullMs: 1_500,
  pushMs: 15_000,
};
export const GOAL_LABELS = { firstVisit: '≤ 4 s', participantsUsable: '≤ 20 s', firstSyncBytes: '≤ 4 MB', pull: '≤ 1.5 s', push: '≤ 15 s' };

/**
 * The online-only baseline's runs through the link stop waiting here: its Participants page needs
 * 5,002 requests (minutes at 300 ms on 6 connections), and the whole bench must stay under 10 min.
 */
export const BASELINE_CAP_MS = 45_000;
