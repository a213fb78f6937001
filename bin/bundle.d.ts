// Types for bin/bundle.js (plain JavaScript so it can run before any TypeScript tooling is loaded).
export declare const ROOT: string;
export declare function ensureBundle(entry: string, name: string): Promise<string>;
