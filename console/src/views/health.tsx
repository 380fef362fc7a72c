/** Placeholder of HealthView (issue #22): replaced by its owner. */
export function HealthView(_props: Record<string, unknown>) {
  return <p>HealthView</p>;
}
