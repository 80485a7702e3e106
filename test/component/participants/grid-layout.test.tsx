import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { cardDelayMs, columnsForWidth } from '../../../src/screens/participants/grid-layout';
import { ParticipantsPage } from '../../../src/screens/participants/participants-page';
import { clearDb, renderPage } from '../render-page';

describe('participant grid layout', () => {
  it('fits 1, 2 or 3 columns to the grid width at the three target screens', () => {
    expect(columnsForWidth(464)).toBe(1); // 768×1024 with the 16rem sidebar
    expect(columnsForWidth(704)).toBe(2); // 1024×768
    expect(columnsForWidth(1120)).toBe(3); // 1440×900
  });

  it('delays card i by 0.05 s × i, capped so card 400 does not wait 20 s', () => {
    expect(cardDelayMs(0)).toBe(0);
    expect(cardDelayMs(3)).toBe(150);
    expect(cardDelayMs(12)).toBe(600);
    expect(cardDelayMs(400)).toBe(600);
  });
});

describe('participant cards animate in', { timeout: 30_000 }, () => {
  const animate = vi.fn();
  beforeEach(async () => {
    await clearDb();
    animate.mockClear();
    // jsdom has no Web Animations API; record what the cards ask for.
    Element.prototype.animate = animate as unknown as Element['animate'];
  });
  afterEach(() => {
    cleanup();
    delete (Element.prototype as Partial<Element>).animate;
  });

  it('each mounted card once, with its index delay', async () => {
    await db.participants.bulkPut(
      Array.from({ length: 30 }, (_, i) => ({ id: `p${i}`, first_name: `P${i}`, last_name: 'X', enrollment_date: `2025-01-${String(30 - i).padStart(2, '0')}` })),
    );
    // A tall window (the grid shows one row beyond the view): enough cards to reach the cap.
    const height = window.innerHeight;
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 2000 });
    try {
      await renderPage(<ParticipantsPage />, { at: 'Participants' });
      await screen.findByText('30 participants');
    } finally {
      Object.defineProperty(window, 'innerHeight', { configurable: true, value: height });
    }
    const cards = screen.getAllByRole('listitem').length;
    expect(cards).toBeGreaterThan(13); // so the cap at index 12 is exercised
    expect(animate).toHaveBeenCalledTimes(cards);
    const delays = animate.mock.calls.map((c) => (c[1] as KeyframeAnimationOptions).delay);
    expect(delays.slice(0, 4)).toEqual([0, 50, 100, 150]);
    expect(Math.max(...(delays as number[]))).toBeLessThanOrEqual(600);
  });
});
