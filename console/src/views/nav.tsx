/** Placeholder of Nav (issue #22): replaced by its owner. */
export function Nav(_props: Record<string, unknown>) {
  return <p>Nav</p>;
}
