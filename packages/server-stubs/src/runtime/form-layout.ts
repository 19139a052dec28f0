/**
 * The layout of a form body, as the generated validators carry it (`body.encoding`): per
 * media type, what each member of the body is and how the spec's `encoding` says it travels.
 */

/** What a member is, as far as decoding its text needs to know. */
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

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && (value as { bytes?: unknown }).bytes instanceof Uint8Array;
}
