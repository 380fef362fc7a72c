/** The console's entry point (issue #22): takes a `#token=` fragment, then renders the app. */
import { render } from 'preact';
import { App } from './app';
import { takeFragmentToken } from './session';

takeFragmentToken();
render(<App />, document.getElementById('app')!);
