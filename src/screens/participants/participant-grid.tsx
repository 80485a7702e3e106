import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  observeWindowOffset,
  observeWindowRect,
  useVirtualizer,
  windowScroll,
} from '@tanstack/react-virtual';
import type { Participant } from '../../../shared/entities';
import { ANIMATE_WINDOW_MS, cardDelayMs, columnsForWidth, ESTIMATED_ROW_HEIGHT } from './grid-layout';
import { ParticipantCard } from './participant-card';
import { isWindow, offsetWithin, useScrollParent } from './use-scroll-parent';

const NO_CODES: readonly string[] = [];

/**
 * The participant cards as a windowed grid: rows of N cards (N from the grid's width), and only
 * the rows in view (plus 3 above and below) are in the DOM — 10,000 participants render about 30
 * cards, not 10,000. It scrolls with the page's own scroller (the shell's main area or the window).
 */
export function ParticipantGrid({ participants, codesByParticipant }: { participants: Participant[]; codesByParticipant: Map<string, string[]> }) {
  const gridRef = useRef<HTMLDivElement>(null);
  const scroller = useScrollParent(gridRef);
  const width = useElementWidth(gridRef);
  const columns = columnsForWidth(width);
  const rowCount = Math.ceil(participants.length / columns);
  const [scrollMargin, setScrollMargin] = useState(0);
  const mountedAt = useRef(performance.now());

  useLayoutEffect(() => {
    if (gridRef.current && scroller) setScrollMargin(offsetWithin(gridRef.current, scroller));
  }, [scroller, width]);

  const onWindow = isWindow(scroller);
  // One virtualizer for both kinds of scroller: the observe/scroll functions are swapped, which is
  // exactly what useWindowVirtualizer does internally.
  const virtualizer = useVirtualizer<Element, HTMLDivElement>({
    count: rowCount,
    getScrollElement: () => scroller as Element | null,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    overscan: 3,
    scrollMargin,
    observeElementRect: (onWindow ? observeWindowRect : observeElementRect) as typeof observeElementRect,
    observeElementOffset: (onWindow ? observeWindowOffset : observeElementOffset) as typeof observeElementOffset,
    scrollToFn: (onWindow ? windowScroll : elementScroll) as typeof elementScroll,
    // A real row is never 0 px tall (a card has padding and a name); 0 means "not laid out" (a
    // hidden tab, jsdom). Taking the estimate then keeps the window at ~30 cards instead of
    // treating every row as zero-height and mounting all 10,000.
    measureElement: (el) => Math.round(el.getBoundingClientRect().height) || ESTIMATED_ROW_HEIGHT,
    initialRect: { width: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight },
  });
  const animate = performance.now() - mountedAt.current < ANIMATE_WINDOW_MS;

  return (
    <div ref={gridRef} role="list" aria-label="Participants" className="relative" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          role="none"
          className="absolute inset-x-0 top-0 grid gap-4 pb-4"
          style={{ transform: `translateY(${row.start - scrollMargin}px)`, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
        >
          {participants.slice(row.index * columns, row.index * columns + columns).map((p, i) => {
            const index = row.index * columns + i;
            return (
              <div key={p.id} role="listitem" aria-setsize={participants.length} aria-posinset={index + 1}>
                <ParticipantCard participant={p} activeCohorts={codesByParticipant.get(p.id) ?? NO_CODES} delayMs={animate ? cardDelayMs(index) : null} />
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}

/** The element's width, kept current with a ResizeObserver; the viewport width until first measured (and in jsdom). */
function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? 1024 : window.innerWidth));
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => {
      const w = el.getBoundingClientRect().width;
      if (w > 0) setWidth(w);
    };
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(read);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
