import type { OutboxOp } from '../db';

/**
 * S5 rebase: the server's row with this device's not-yet-pushed changes on top. Pure. Returns
 * null when a queued delete means the row must stay gone from the mirror.
 */
export function rebaseRow(
  server: Record<string, unknown>,
  ops: Pick<OutboxOp, 'kind' | 'data' | 'seq'>[],
): Record<string, unknown> | null {
  const row = { ...server };
  const ordered = [...ops].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  for (const op of ordered) {
    if (op.kind === 'delete') return null;
    if (op.kind === 'update') Object.assign(row, op.data);
    // A create op for a row the server already has is one whose answer was lost; its body is what
    // the server stored, so the server row already reflects it.
  }
  return row;
}
