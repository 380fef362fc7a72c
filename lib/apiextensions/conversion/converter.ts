/**
 * Conversion of custom resources between the versions of their CRD (upstream v1.30
 * apiextensions-apiserver `pkg/apiserver/conversion`: `delegatingCRConverter` around the
 * strategy's converter). The checks common to every strategy live here: both versions must be
 * listed by the CRD, objects already in the desired version are left alone (and never sent),
 * the strategy must return as many objects as it was given, each of the desired version and the
 * same kind, name, namespace and uid, and only labels and annotations of their metadata may
 * change (the rest is restored from the original). One call converts a whole batch (a list's
 * items go to a webhook in ONE ConversionReview).
 */
import type { CustomResourceDefinition } from '../types.js';
import { ConversionError } from './errors.js';
import { type ConversionStrategy, nopConversion } from './nop-converter.js';
import { restoreObjectMeta, stringField, validateConvertedObject } from './restore-meta.js';
import { type ConversionServiceReference, newWebhookConversion } from './webhook-converter.js';

type Obj = Record<string, unknown>;

/** Converts custom resources of one CRD between its versions. */
export interface CustomResourceConverter {
  /**
   * Converts every object (each in any version the CRD lists) to `toAPIVersion`
   * (`<group>/<version>`). Objects already in that version are returned as they are (the same
   * objects) and not sent to the strategy; the others are converted in one batch; order is
   * kept. The inputs are never modified.
   * `listKind`: the objects are the items of a list of this kind (`WidgetList`); upstream then
   * names the list `<toAPIVersion>, Kind=<listKind>` in its messages, and a single object by
   * its own group-version-kind (several objects without `listKind`: the first one's).
   * @throws ConversionError with upstream's message.
   */
  convert(objects: readonly Obj[], toAPIVersion: string, signal?: AbortSignal, listKind?: string): Promise<Obj[]>;
  /** Releases pooled webhook connections (call when the CRD changes or goes away). */
  close(): void;
}

/** Options of {@link newCustomResourceConverter}. */
export interface CustomResourceConverterOptions {
  /** The URL of a `service` webhook reference (see webhook-converter.ts). */
  serviceURL?: (service: ConversionServiceReference) => string;
  /** Timeout of one webhook call in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Told why a conversion failed (the message, as thrown). */
  log?: (message: string) => void;
}

/** Group and version of an apiVersion, as upstream's ParseGroupVersion (more than one `/`: empty). */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

/** Go's GroupVersion.String(): `group/version`, or `version` for the core group. */
function gvString(apiVersion: string): string {
  const gv = parseGroupVersion(apiVersion);
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** Go's GroupVersionKind.String(): `group/version, Kind=Kind` (the slash always present). */
function gvkString(apiVersion: string, kind: string): string {
  const gv = parseGroupVersion(apiVersion);
  return `${gv.group}/${gv.version}, Kind=${kind}`;
}

/** An object with nothing but `apiVersion` and `kind` (upstream `isEmptyUnstructuredObject`). */
function isEmptyObject(o: Obj): boolean {
  const keys = Object.keys(o);
  return keys.length === 2 && 'apiVersion' in o && 'kind' in o;
}

/**
 * Checks one converted object against its original and restores its metadata (in place). `at`
 * is the 1-based position among the converted objects, as upstream reports it.
 * @returns the end of upstream's message (`invalid converted object at index 1: invalid kind
 *   (expected A, received B)`), or undefined when the object is acceptable.
 */
function checkConverted(original: Obj, result: Obj, at: number, toAPIVersion: string): string | undefined {
  const wantGV = gvString(toAPIVersion);
  const gotGV = gvString(stringField(result, 'apiVersion'));
  if (gotGV !== wantGV) return `invalid converted object at index ${at}: invalid groupVersion (expected ${wantGV}, received ${gotGV})`;
  const wantKind = stringField(original, 'kind');
  const gotKind = stringField(result, 'kind');
  if (wantKind !== gotKind) return `invalid converted object at index ${at}: invalid kind (expected ${wantKind}, received ${gotKind})`;
  const identity = validateConvertedObject(original, result);
  if (identity) return `invalid converted object at index ${at}: ${identity}`;
  const meta = restoreObjectMeta(original, result);
  if (meta) return `invalid metadata in object at index ${at}: ${meta}`;
  return undefined;
}

/**
 * The strategy `crd.spec.conversion.strategy` names, or upstream's error for an unknown one
 * (which the CRD's validation keeps out: `unknown conversion strategy "<s>" for CRD <name>`).
 */
function strategyOf(crd: CustomResourceDefinition, opts: CustomResourceConverterOptions): ConversionStrategy | string {
  const strategy = crd.spec.conversion?.strategy ?? 'None';
  if (strategy === 'None') return nopConversion;
  if (strategy === 'Webhook') return newWebhookConversion(crd, opts);
  return `unknown conversion strategy ${JSON.stringify(strategy)} for CRD ${crd.metadata.name ?? ''}`;
}

/**
 * The converter of `crd` (its `spec.conversion.strategy`: `None` rewrites `apiVersion`,
 * `Webhook` asks the webhook). Build a new one when the CRD changes.
 */
export function newCustomResourceConverter(crd: CustomResourceDefinition, opts: CustomResourceConverterOptions = {}): CustomResourceConverter {
  const valid = new Set(crd.spec.versions.map((v) => `${crd.spec.group}/${v.name}`));
  const isValid = (apiVersion: string): boolean => valid.has(apiVersion);
  const chosen = strategyOf(crd, opts);
  const fail = (message: string): ConversionError => {
    opts.log?.(message);
    return new ConversionError(message);
  };

  return {
    async convert(objects, toAPIVersion, signal, listKind) {
      const isList = listKind !== undefined;
      const first = objects[0];
      const inGVK = isList ? gvkString(toAPIVersion, listKind) : gvkString(first ? stringField(first, 'apiVersion') : '', first ? stringField(first, 'kind') : '');
      if (!isValid(toAPIVersion)) throw fail(`request to convert CR to an invalid group/version: ${gvString(toAPIVersion)}`);
      if (!isList && first && !isValid(stringField(first, 'apiVersion'))) {
        throw fail(`request to convert CR from an invalid group/version: ${gvString(stringField(first, 'apiVersion'))}`);
      }
      const pending: number[] = [];
      for (const [i, o] of objects.entries()) {
        const av = stringField(o, 'apiVersion');
        if (!isValid(av)) throw fail(`request to convert CR list failed, list index ${i} has invalid group/version: ${gvString(av)}`);
        if (av !== toAPIVersion) pending.push(i);
      }
      if (pending.length === 0) return [...objects];
      if (!isList && objects.length === 1 && isEmptyObject(first!)) return nopConversion.convert(objects, toAPIVersion, '');

      if (typeof chosen === 'string') throw fail(chosen);
      const sent = pending.map((i) => objects[i]!);
      let converted: Obj[];
      try {
        converted = await chosen.convert(sent, toAPIVersion, isList ? inGVK : '/, Kind=', signal);
      } catch (err) {
        throw fail(`conversion for ${inGVK} failed: ${(err as Error).message}`);
      }
      if (converted.length !== sent.length) throw fail(`conversion for ${inGVK} returned ${converted.length} objects, expected ${sent.length}`);
      // The None strategy's output passes the checks by construction (only apiVersion differs).
      const checked = chosen !== nopConversion;
      const out = [...objects];
      for (const [n, i] of pending.entries()) {
        const result = converted[n]!;
        const problem = checked ? checkConverted(objects[i]!, result, n + 1, toAPIVersion) : undefined;
        if (problem) throw fail(`conversion for ${inGVK} returned ${problem}`);
        out[i] = result;
      }
      return out;
    },
    close() {
      if (typeof chosen !== 'string') chosen.close();
    },
  };
}
