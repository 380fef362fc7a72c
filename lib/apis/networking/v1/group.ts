/** The API group of the networking kinds and the definition-id prefix of its v1 structs. */
import { vendorGroup } from '../../vendor.js';

/** `networking.<vendor>`. */
export const NETWORKING_GROUP = vendorGroup('networking');
/** Definition ids of networking/v1 structs: `api.networking.v1.<Type>`. */
export const NETWORKING_V1 = 'api.networking.v1';
