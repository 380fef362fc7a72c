/** The kinds of `apiregistration.<vendor>/v1` (issue #12): APIService. */
import type { KindDefinition } from '../../define.js';
import { apiService } from './api-service.js';

export { apiService, apiServiceSpec, APIREGISTRATION_GROUP } from './api-service.js';
export { validateAPIService, validateAPIServiceStatus } from './api-service-validation.js';

/** Every kind of the group version, for the catalogue. */
export const apiregistrationV1Kinds: readonly KindDefinition[] = [apiService];
