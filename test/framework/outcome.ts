/** How a promise settled, for comparing in an assertion: 'ok' when it resolved, else the rejection's message. */
export function outcome(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'ok',
    (e: Error) => e.message,
  );
}
