/** The console's shell (issue #22): header, navigation and the page the URL names (routes.tsx). */
import { Nav } from './views/nav';
import { useRoute } from './router';
import { pageFor } from './routes';

/** The whole app: the page for the current console path, beside the navigation. */
export function App() {
  const path = useRoute();
  const { view: View, props } = pageFor(path);
  return (
    <div class="shell">
      <Nav path={path} />
      <main class="page">
        <View key={path} {...props} />
      </main>
    </div>
  );
}
