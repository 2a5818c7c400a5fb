// Types for python-env.mjs, so the TypeScript tests can ask for the Python environment under `strict`.

export declare const VENV: string;
export declare const PACKAGES: string[];

export type TrlEnv = { python: string; versions: string; reason?: undefined } | { python: null; reason: string; versions?: undefined };

/** The venv's Python when it is ready, else the sentence that says why not. Makes it first unless `install: false`. */
export declare function trlEnv(options?: { install?: boolean; log?: (line: string) => void }): TrlEnv;
