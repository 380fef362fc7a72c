/**
 * Strategy of `networking.<vendor>/v1alpha1` IPAddress (upstream v1.30
 * pkg/registry/networking/ipaddress/strategy.go): no generation, unconditional updates allowed.
 */
import { ipAddress } from '../../../apis/networking/v1alpha1/index.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

export const ipAddressStrategy: Strategy = newKindStrategy(ipAddress, { tracksGeneration: false });
