type Measure = () => { total: number; files: { file: string; gzipped: number }[] };
export declare const WEB_BUDGET_BYTES: number;
export declare const measureSignInBundle: Measure;
export declare const measureSignedInHome: Measure;
export declare const requestRounds: (
  loaded: string[],
  requested: string[],
) => { file: string; source: string | undefined; round: number | undefined }[];
