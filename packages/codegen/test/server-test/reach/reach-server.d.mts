export type StyleName = 'named-differently' | 'fill-by-post' | 'location-only' | 'id-member';
export type DefectName = 'missing-member' | 'extra-member' | 'bad-date-time' | 'wrong-content-type' | 'no-credential-check';
export declare const STYLES: readonly StyleName[];
export declare const DEFECTS: readonly DefectName[];
export interface ReachServer {
  /** http://127.0.0.1:<port>/api */
  readonly url: string;
  close(): Promise<void>;
}
export declare function startReachServer(style: StyleName, options?: { defect?: DefectName; refuseCreation?: boolean }): Promise<ReachServer>;
