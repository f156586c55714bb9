// Types of scripts/build-if-changed.js (plain JavaScript so that `npm start` needs no TypeScript runner).
export declare function currentStamp(root?: string): string;
export declare function writeStamp(root?: string): void;
export declare function isUpToDate(root?: string): boolean;
