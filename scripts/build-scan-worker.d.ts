export declare const SCAN_WORKER_FILE: string;
export declare function buildScanWorker(outfile?: string): Promise<Uint8Array | undefined>;
