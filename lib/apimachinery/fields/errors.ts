/**
 * The error thrown for a field selector that cannot be parsed or names a field the resource does
 * not support; its message is the upstream text. Handlers turn it into 400 BadRequest
 * (spec 000 § Collections; issue #4 item 6).
 */
export class FieldSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorError';
  }
}
