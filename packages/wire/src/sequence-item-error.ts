/** An item that cannot be written in its format (an event without `data`, a value JSON cannot hold). */
export class SequenceItemError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SequenceItemError';
  }
}
