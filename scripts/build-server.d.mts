// Types of scripts/build-server.mjs for the tests.
export const SERVER_BUNDLE: string;
export function buildServer(): Promise<string>;
