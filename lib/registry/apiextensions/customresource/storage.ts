/**
 * The stores of a CustomResourceDefinition's served versions (issue #14): one storage (and watch
 * cache) per CRD, shared by every version; per served version a main store, a `status` store and
 * a `scale` subresource as the version declares them, each with that version's strategy, and the
 * conversion between the version and the stored objects (the `None` strategy: only `apiVersion`
 * changes; objects read are defaulted with the served version's schema, as upstream defaults on
 * read).
 */
import { labelSelectorFromObject } from '../../../apimachinery/labels/selector.js';
import type { KindDefinition, Obj } from '../../../apis/define.js';
import type { VersionConversion } from '../../../apis/version-conversion.js';
import { type CustomResourceOptions, type CustomResourceVersion, customResourceVersion, DEFAULT_CUSTOM_RESOURCE_OPTIONS } from '../../../apiextensions/custom-kind.js';
import type { CustomResourceDefinition, CustomResourceSubresourceScale } from '../../../apiextensions/types.js';
import type { StorageInterface } from '../../../storage/interface.js';
import type { CustomResourceConverter } from '../../../apiextensions/conversion/converter.js';
import { ConvertingStorage } from './converting-storage.js';
import type { KindedSubresource } from '../../rest/updater.js';
import { ScaleREST, scaleSubresource } from '../../generic/scale.js';
import { Store } from '../../generic/store.js';
import { newCustomResourceStatusStrategy, newCustomResourceStrategy } from './strategy.js';

/** One served version's stores and conversion. */
export interface CustomResourceServedVersion {
  version: CustomResourceVersion;
  /**
   * The conversion between this version and the stored objects (`None` strategy); absent with a
   * conversion webhook, whose stores convert in their storage (converting-storage.ts).
   */
  conversion?: VersionConversion;
  store: Store;
  subresources: Map<string, Store>;
  updaters: Map<string, KindedSubresource>;
}

/** The stored version's name: the one marked `storage`. */
export function storageVersionOf(crd: CustomResourceDefinition): string {
  return (crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0]!).name;
}

/**
 * The `None` conversion of a stored object to `served` (only `apiVersion` changes; the served
 * version's defaults are applied to what is read) and back to `storageKind`.
 */
export function noneConversion(storageKind: KindDefinition, served: KindDefinition): VersionConversion {
  const hooks = served.custom!;
  return {
    storageKind,
    servedKind: served,
    toStorage: (obj) => (obj.apiVersion === storageKind.apiVersion ? obj : { ...obj, apiVersion: storageKind.apiVersion }),
    toServed(obj) {
      const out: Obj = obj.apiVersion === served.apiVersion ? obj : { ...obj, apiVersion: served.apiVersion };
      if (!hooks.defaulting) return out;
      const copy = hooks.canonicalize(out);
      hooks.applyDefaults(copy);
      return hooks.canonicalize(copy);
    },
    fieldLabel: (label) => label,
  };
}

/** The `scale` facts of a custom resource: its replica paths and the serialized selector at labelSelectorPath. */
function customScale(s: CustomResourceSubresourceScale) {
  const strip = (p: string) => p.replace(/^\./, '');
  const selectorPath = s.labelSelectorPath ? strip(s.labelSelectorPath).split('.') : undefined;
  return scaleSubresource({
    specReplicasPath: strip(s.specReplicasPath),
    statusReplicasPath: strip(s.statusReplicasPath),
    selector(parent: Obj): string {
      if (!selectorPath) return '';
      let v: unknown = parent;
      for (const p of selectorPath) v = v !== null && typeof v === 'object' ? (v as Obj)[p] : undefined;
      if (typeof v === 'string') return v;
      // A LabelSelector object at the path is printed as the selector string, as a workload's.
      if (v !== null && typeof v === 'object') return labelSelectorFromObject(v as Parameters<typeof labelSelectorFromObject>[0]).toString();
      return '';
    },
  });
}

/**
 * The stores of every served version of `crd` over `storage` (keys under `keyRoot`), in the
 * order of `spec.versions`. With the `Webhook` strategy `converter` converts between versions in
 * each version's storage (converting-storage.ts); without it, or with `None`, only `apiVersion`
 * changes (noneConversion). `options`: the feature-gated behaviour of the versions (custom-kind.ts).
 * @throws Error when the CRD lists no storage version schema (CRD validation prevents it).
 */
export function customResourceStores(
  crd: CustomResourceDefinition,
  storage: StorageInterface,
  keyRoot: string,
  converter?: CustomResourceConverter,
  options: CustomResourceOptions = DEFAULT_CUSTOM_RESOURCE_OPTIONS,
): CustomResourceServedVersion[] {
  const storageKind = customResourceVersion(crd, storageVersionOf(crd), options).kind;
  const webhook = crd.spec.conversion?.strategy === 'Webhook' && converter !== undefined;
  const out: CustomResourceServedVersion[] = [];
  for (const v of crd.spec.versions) {
    if (!v.served) continue;
    const version = customResourceVersion(crd, v.name, options);
    const hooks = version.kind.custom!;
    const versionStorage = webhook
      ? new ConvertingStorage(storage, converter, { served: version.kind.apiVersion, stored: storageKind.apiVersion, listKind: version.kind.listKind }, hooks.defaulting ? (o) => hooks.applyDefaults(o) : undefined)
      : storage;
    const strategy = newCustomResourceStrategy(version);
    const store = new Store({ storage: versionStorage, keyRoot, strategy });
    const subresources = new Map<string, Store>();
    if (version.statusEnabled) subresources.set('status', new Store({ storage: versionStorage, keyRoot, strategy: newCustomResourceStatusStrategy(strategy, version) }));
    const updaters = new Map<string, KindedSubresource>();
    if (version.scale) updaters.set('scale', new ScaleREST(store, customScale(version.scale)));
    out.push({ version, ...(webhook ? {} : { conversion: noneConversion(storageKind, version.kind) }), store, subresources, updaters });
  }
  return out;
}
