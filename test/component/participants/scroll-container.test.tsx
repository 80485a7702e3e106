import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { ParticipantsPage } from '../../../src/screens/participants/participants-page';
import { clearDb, renderPage } from '../render-page';

// jsdom does no layout: give the scrolling main area the size a browser would (1024 × 600 px).
const clientHeight = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight')!;
const clientWidth = Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth')!;
const mainSized = (size: number) => ({
  configurable: true,
  get(this: Element) {
    return (this as HTMLElement).dataset?.testid === 'main' ? size : 0;
  },
});
beforeEach(async () => {
  await clearDb();
  Object.defineProperty(Element.prototype, 'clientHeight', mainSized(600));
  Object.defineProperty(Element.prototype, 'clientWidth', mainSized(1024));
});
afterEach(() => {
  cleanup();
  Object.defineProperty(Element.prototype, 'clientHeight', clientHeight);
  Object.defineProperty(Element.prototype, 'clientWidth', clientWidth);
});

const posinsets = () => screen.getAllByRole('listitem').map((li) => Number(li.getAttribute('aria-posinset')));

describe('participant grid inside a scrolling main area', { timeout: 30_000 }, () => {
  it('follows the nearest scrolling ancestor: scrolling it moves the window of cards', async () => {
    await db.participants.bulkPut(
      Array.from({ length: 2_000 }, (_, i) => ({ id: `p${i}`, first_name: `P${i}`, last_name: 'X', enrollment_date: '2025-01-01' })),
    );
    await renderPage(
      <div data-testid="main" style={{ overflowY: 'auto', height: 600 }}>
        <ParticipantsPage />
      </div>,
      { at: 'Participants' },
    );
    await screen.findByText('2000 participants');
    const before = posinsets();
    expect(before[0]).toBe(1);
    expect(before.length).toBeLessThan(60);

    // 2 columns (jsdom is 1024 px wide), ~260 px per row: 200 rows down is about card 400.
    const main = screen.getByTestId('main');
    await act(async () => {
      // jsdom keeps scrollTop at 0; a scrolled browser element reports where it is.
      Object.defineProperty(main, 'scrollTop', { configurable: true, value: 260 * 200 });
      fireEvent.scroll(main);
    });
    const after = posinsets();
    expect(Math.min(...after)).toBeGreaterThan(300);
    expect(after.length).toBeLessThan(60);
  });
});
