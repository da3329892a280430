// The lint config's layers, for test/guard-rails.test.ts.
export declare const LAYERS: string[][];
declare const config: unknown[];
export default config;
