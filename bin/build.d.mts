// Types for bin/build.mjs (plain JavaScript so it runs before any TypeScript tooling is loaded).
export declare const ROOT: string;
export declare const DIST: string;
export declare const ENTRIES: Record<string, string>;
export declare const STANDALONE: Record<string, string>;
export declare const COMMONJS: Record<string, string>;
export declare function buildDist(options?: { quiet?: boolean }): Promise<{ changed: number; files: number }>;
