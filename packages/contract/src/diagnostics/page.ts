// Apart from the diagnostics schemas: the web shell's navigation links here without loading zod.

/** Where the diagnostic page lives (spec2 §1, spec3 §2: the 'diagnostic' area; administrators only). */
export const DIAGNOSTIC_PAGE_PATH = '/diagnostic';
