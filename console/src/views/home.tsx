/** Placeholder of HomeView (issue #22): replaced by its owner. */
export function HomeView(_props: Record<string, unknown>) {
  return <p>HomeView</p>;
}
