/** Naming (docs/design.md): one place for the product, the organisation's display name and its slug. */
export const PRODUCT = 'Passage';
export const BRAND_NAME = 'Reentry Academy';
export const BRAND_SLUG = 'academy';
/** The participant's program id field: `{brand}_uid`. */
export const UID_FIELD = `${BRAND_SLUG}_uid` as const;
export const DEFAULT_APP_ID = 'passage';
