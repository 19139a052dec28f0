// js-yaml 4 under an alias: the tolerant parser used only when the strict one refuses a file.
declare module 'js-yaml-lenient' {
  export function load(source: string, options?: { filename?: string; json?: boolean }): unknown;
}
