/** Naming (docs/design.md): one place for the product, the organisation's display name and its slug. */
export const PRODUCT = 'Passage';
export const BRAND_NAME = 'Reentry Academy';
export const BRAND_SLUG = 'academy';
/** The participant's program id field: `{brand}_uid`. */
export const UID_FIELD = `${BRAND_SLUG}_uid` as const;
export const DEFAULT_APP_ID = 'passage';
/**
 * What `vite build --mode e2e` (the browser tests' build, dist-e2e/) puts in its index.html, so the
 * server can warn when it is asked to serve one (server/main.ts).
 */
export const E2E_BUILD_MARK = '<meta name="passage-test-build" content="e2e">';
