/**
 * The error thrown for a label selector that cannot be parsed or built; its message is the
 * upstream text. Handlers turn it into 400 BadRequest (spec 000 § Collections; issue #4 item 6).
 */
export class SelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorParseError';
  }
}
