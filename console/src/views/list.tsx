/** Placeholder of ListView (issue #22): replaced by its owner. */
export function ListView(_props: Record<string, unknown>) {
  return <p>ListView</p>;
}
