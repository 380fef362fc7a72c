/** Placeholder of AccessView (issue #22): replaced by its owner. */
export function AccessView(_props: Record<string, unknown>) {
  return <p>AccessView</p>;
}
