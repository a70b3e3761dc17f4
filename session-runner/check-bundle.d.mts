/** session-runner/check-bundle.mjs: plain JavaScript, so the image build runs it with node alone. */
export declare const REQUIRED: { what: string; pattern: RegExp }[];
export declare function missingFromBundle(text: string): string[];
