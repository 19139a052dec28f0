/**
 * The layout of a form body, as the generated validators carry it (`body.encoding`): per
 * media type, what each member of the body is and how the spec's `encoding` says it travels.
 * The writer (form-encode.ts) and the reader (form-decode.ts) of form bodies read it by the
 * same defaults and delimiters, here.
 */

/** What a member is, as far as writing and reading its text needs to know. */
export interface FormValue {
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'file' | 'array' | 'object' | 'any';
  readonly items?: FormValue;
  readonly properties?: { readonly [name: string]: FormValue };
}

/** One member: its value and its `encoding` entry (only what the spec writes). */
export interface FormField extends FormValue {
  readonly contentType?: string;
  readonly style?: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  readonly explode?: boolean;
  readonly allowReserved?: boolean;
}

/** The `style` an `encoding` entry may give a member. */
export type FormStyle = NonNullable<FormField['style']>;

/** The text between the items (and member names and values) of a member sent as one delimited text. */
export const FORM_DELIMITERS: { readonly [style in FormStyle]: string } = { form: ',', spaceDelimited: ' ', pipeDelimited: '|', deepObject: ',' };

/**
 * How a member travels when no `contentType` says JSON: its `style` (default `form`) and
 * whether it is exploded (default: only in style `form`), OpenAPI's defaults for `encoding`.
 *
 * @example
 * formEncoding({ type: 'array', style: 'pipeDelimited' }) // → { style: 'pipeDelimited', explode: false }
 */
export function formEncoding(field: FormField | undefined): { readonly style: FormStyle; readonly explode: boolean } {
  const style = field?.style ?? 'form';
  return { style, explode: field?.explode ?? style === 'form' };
}

/** The members of one form media type, by name. */
export type FormLayout = { readonly [name: string]: FormField };

/** Layouts by media type, exactly as written in the spec. */
export type FormEncodings = { readonly [contentType: string]: FormLayout };

/**
 * A file of a multipart body, as a handler receives it.
 *
 * @example
 * const { bytes, filename, contentType, size } = request.body.documentFile;
 */
export interface UploadedFile {
  readonly bytes: Uint8Array;
  /** The `filename` of the part, when the client sent one. */
  readonly filename?: string;
  /** The part's `Content-Type` (`application/octet-stream` when it named none). */
  readonly contentType: string;
  /** Byte length of `bytes`. */
  readonly size: number;
}

/** True for a file of a multipart body as the server runtime hands it over (`UploadedFile`). */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && (value as { bytes?: unknown }).bytes instanceof Uint8Array;
}
