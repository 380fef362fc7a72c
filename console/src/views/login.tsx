/** Placeholder of LoginView (issue #22): replaced by its owner. */
export function LoginView(_props: Record<string, unknown>) {
  return <p>LoginView</p>;
}
