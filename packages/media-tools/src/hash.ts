/** SHA-256 of a file's content, hex; read as a stream (any size). */
export declare const contentHash: (file: string, options?: { signal?: AbortSignal }) => Promise<string>;
