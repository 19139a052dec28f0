// Types of planted-server.mjs, for the TypeScript tests that import it.

/** One planted defect: its name (the value of `startPlantedServer({ defect })`) and what it changes. */
export interface Defect {
  readonly name: DefectName;
  readonly description: string;
}

export type DefectName =
  | 'missing-required-member'
  | 'wrong-type'
  | 'undeclared-status'
  | 'undeclared-content-type'
  | 'server-error-on-malformed'
  | 'invalid-body-accepted'
  | 'unenforced-security'
  | 'missing-required-header'
  | 'page-skipping-record'
  | 'member-outside-closed-object';

/** A running server of inventory.yaml. */
export interface PlantedServer {
  /** `http://127.0.0.1:<port>/inventory/v1`: the origin and the file's server path. */
  readonly url: string;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

/** The planted defects, in a fixed order. Each changes one behaviour; everything else stays correct. */
export declare const DEFECTS: readonly Defect[];

/** Starts the server on 127.0.0.1 and a free port, correct or with one defect from DEFECTS. */
export declare function startPlantedServer(options?: { defect?: DefectName | undefined }): Promise<PlantedServer>;
