/** Thrown when data claiming to be memory items does not have their shape (e.g. a corrupt snapshot row). */
export class MemoryFormatError extends Error {
  override readonly name = "MemoryFormatError";
  /** Dotted path to the offending value, e.g. `items[3].toolCalls[0].id`. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.path = path;
  }
}
