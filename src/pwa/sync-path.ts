/** The Sync page's path (not a page of spec 2.1: Passage's own addition, issue #5.4). */
export const SYNC_PATH: string = '/sync';
