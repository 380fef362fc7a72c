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

/**
 * Joins error messages the way upstream prints an aggregate error: one message alone, several
 * (duplicates dropped) as `[a, b]`.
 */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0]!;
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
