import { memo, useCallback, useRef, type MouseEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  observeWindowOffset,
  observeWindowRect,
  useVirtualizer,
  windowScroll,
} from '@tanstack/react-virtual';
import { pagePath } from '../../shell-api/paths';
import type { Participant } from '../../../shared/entities';
import { ANIMATE_WINDOW_MS, cardDelayMs, columnsForWidth, ESTIMATED_ROW_HEIGHT } from './grid-layout';
import { PARTICIPANT_ID_ATTRIBUTE, ParticipantCard } from './participant-card';
import { isWindow, useGridGeometry } from './use-scroll-parent';

const NO_CODES: readonly string[] = [];

/**
 * The participant cards as a windowed grid: rows of N cards (N from the grid's width), and only
 * the rows in view (plus one above and below) are in the DOM — 10,000 participants render about 15
 * cards, not 10,000. It scrolls with the page's own scroller (the shell's main area or the window).
 *
 * A search keystroke must show its results within 30 ms (issue #11.5), so the work per new result
 * set is kept to rendering the cards that changed and one layout:
 * - rows are measured by the ResizeObserver after the browser's own layout, never by reading
 *   sizes while React commits (that forced a second layout per keystroke);
 * - the virtualizer writes row positions and the grid's height straight to the DOM
 *   (`directDomUpdates`), so a measurement re-renders nothing unless the visible range changes;
 * - card slots are keyed by position: a new result set updates the cards in place instead of
 *   tearing 20–30 of them down and building new ones;
 * - cards are plain links; one click handler here hands them to the router.
 * Memoised: a keystroke re-renders the page at once (the input) and the grid only when the
 * deferred result list arrives.
 */
export const ParticipantGrid = memo(function ParticipantGrid({
  participants,
  codesByParticipant,
}: {
  participants: Participant[];
  codesByParticipant: Map<string, string[]>;
}) {
  const gridRef = useRef<HTMLDivElement>(null);
  const { scroller, width, scrollMargin } = useGridGeometry(gridRef);
  const columns = columnsForWidth(width);
  const rowCount = Math.ceil(participants.length / columns);
  const mountedAt = useRef(performance.now());

  const onWindow = isWindow(scroller);
  // One virtualizer for both kinds of scroller: the observe/scroll functions are swapped, which is
  // exactly what useWindowVirtualizer does internally.
  const virtualizer = useVirtualizer<Element, HTMLDivElement>({
    count: rowCount,
    getScrollElement: () => scroller as Element | null,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    // One row (~260 px) either side: enough for wheel and touch scrolling, which render the next
    // rows as they come; each extra row is 3 more cards to render and lay out per keystroke.
    overscan: 1,
    scrollMargin,
    observeElementRect: (onWindow ? observeWindowRect : observeElementRect) as typeof observeElementRect,
    observeElementOffset: (onWindow ? observeWindowOffset : observeElementOffset) as typeof observeElementOffset,
    scrollToFn: (onWindow ? windowScroll : elementScroll) as typeof elementScroll,
    measureElement: rowHeight,
    directDomUpdates: true,
    initialRect: { width: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight },
  });
  const animate = performance.now() - mountedAt.current < ANIMATE_WINDOW_MS;

  const setGrid = useCallback(
    (node: HTMLDivElement | null) => {
      gridRef.current = node;
      virtualizer.containerRef(node);
    },
    [virtualizer],
  );
  const onClick = useCardClicks();

  return (
    // The virtualizer sets this element's height and each row's transform (directDomUpdates).
    <div ref={setGrid} role="list" aria-label="Participants" className="relative" onClick={onClick}>
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          role="none"
          className="absolute inset-x-0 top-0 grid gap-4 pb-4"
          style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
        >
          {participants.slice(row.index * columns, row.index * columns + columns).map((p, i) => {
            const index = row.index * columns + i;
            return (
              // Keyed by slot, not by participant: see above.
              <div key={i} role="listitem" aria-setsize={participants.length} aria-posinset={index + 1}>
                <ParticipantCard participant={p} activeCohorts={codesByParticipant.get(p.id) ?? NO_CODES} delayMs={animate ? cardDelayMs(index) : null} />
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
});

/**
 * A row's height, from the ResizeObserver entry (after layout, nothing forced). When React mounts
 * a row there is no entry yet: the row keeps the height its slot had (or the estimate) until the
 * observer reports, in the same frame, before paint. A real row is never 0 px tall; 0 means "not
 * laid out" (a hidden tab, jsdom), and taking the estimate then keeps the window at ~15 cards
 * instead of treating every row as zero-height and mounting all 10,000.
 */
function rowHeight(el: Element, entry: ResizeObserverEntry | undefined, instance: { measurementsCache: { size: number }[]; indexFromElement(el: Element): number }): number {
  const measured = entry?.borderBoxSize?.[0]?.blockSize;
  if (measured !== undefined) return Math.round(measured) || ESTIMATED_ROW_HEIGHT;
  return instance.measurementsCache[instance.indexFromElement(el)]?.size ?? ESTIMATED_ROW_HEIGHT;
}

/** Plain left clicks on a card go through the router (no reload); modified clicks (new tab) stay the browser's. */
function useCardClicks() {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element).closest(`a[${PARTICIPANT_ID_ATTRIBUTE}]`);
      const id = link?.getAttribute(PARTICIPANT_ID_ATTRIBUTE);
      if (!id) return;
      event.preventDefault();
      void navigate({ to: pagePath('ParticipantDetail'), search: { id } });
    },
    [navigate],
  );
}
