/** One file an emitter produces, relative to the output folder. */
export interface GeneratedFile {
  path: string;
  contents: string;
}
