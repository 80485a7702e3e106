// Types of scripts/build-server.mjs for the tests.
export const SERVER_BUNDLE: string;
export const COMMANDS: Record<'admin-create' | 'backup' | 'restore' | 'audit-verify', string>;
export type CommandName = keyof typeof COMMANDS;
export function buildServer(): Promise<string>;
export function buildCommand(name: CommandName): Promise<string>;
