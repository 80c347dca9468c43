export declare const WEB_BUDGET_BYTES: number;
export declare const measureSignInBundle: () => { total: number; files: { file: string; gzipped: number }[] };
