/**
 * Layout numbers of the windowed participant grid. Columns follow the grid's own width (not the
 * viewport: the sidebar takes 16rem of it, or 3rem as icons): one column under 620 px (a 768 px
 * tablet in portrait with the sidebar open leaves about 460 px; with the icon rail it starts as,
 * about 670 px: two), two up to 1000 px (1024×768 → about 700 px), three
 * above (1440×900 → about 1120 px). Below 300 px cards would wrap every line, so one column stays.
 */
export const TWO_COLUMNS_FROM = 620;
export const THREE_COLUMNS_FROM = 1000;

export function columnsForWidth(width: number): number {
  if (width >= THREE_COLUMNS_FROM) return 3;
  if (width >= TWO_COLUMNS_FROM) return 2;
  return 1;
}

/** A first guess of one row's height (card with name, UID, contact, two boxes + the 16 px gap); rows are then measured. */
export const ESTIMATED_ROW_HEIGHT = 260;

/**
 * Spec 2.5 and 9: each card animates in after 0.05 s × its index. Capped at index 12 (0.6 s):
 * with 400 cards the last one would otherwise wait 20 s, and with a windowed list the cards
 * below the fold are not even mounted yet — only the first screenful animates in.
 */
export const CARD_DELAY_STEP_MS = 50;
export const CARD_DELAY_MAX_INDEX = 12;
/** Cards mounted later than this after the list appeared (by scrolling) show at once. */
export const ANIMATE_WINDOW_MS = 1000;

export function cardDelayMs(index: number): number {
  return Math.min(index, CARD_DELAY_MAX_INDEX) * CARD_DELAY_STEP_MS;
}
