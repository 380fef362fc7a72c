/** Placeholder of ObjectView (issue #22): replaced by its owner. */
export function ObjectView(_props: Record<string, unknown>) {
  return <p>ObjectView</p>;
}
