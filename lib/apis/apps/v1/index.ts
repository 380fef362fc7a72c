/** The apps/v1 kinds served: Deployment. */
export { deployment } from './deployment.js';
