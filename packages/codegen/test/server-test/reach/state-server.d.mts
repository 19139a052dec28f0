export declare function startStateServer(): Promise<{ readonly url: string; close(): Promise<void> }>;
