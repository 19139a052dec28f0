/** A value that could not be made: names the JSON pointer of the schema and why. */
export class SampleError extends Error {
  constructor(
    readonly pointer: string,
    reason: string,
  ) {
    super(`${pointer}: ${reason}`);
    this.name = 'SampleError';
  }
}
