// Types of scripts/precompress.mjs for vite.config.ts and the tests.
import type { Plugin } from 'vite';

export const PRECOMPRESSED_TYPES: Set<string>;
export function precompressDir(dir: string): { file: string; raw: number; br: number; gzip: number }[];
export function precompress(): Plugin;
