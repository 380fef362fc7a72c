/**
 * The conversion a CRD's strategy performs, and the `None` strategy (upstream
 * apiextensions-apiserver conversion `CRConverter`, `nopConverter`). A strategy only sees
 * objects that need converting; version checks, metadata rules and the objects already in the
 * desired version are the business of converter.ts.
 */

type Obj = Record<string, unknown>;

/** A strategy's conversion (upstream `CRConverter`). */
export interface ConversionStrategy {
  /**
   * Converts every object of `objects` (none of them in `toAPIVersion`) to `toAPIVersion`, in
   * order, in one batch. `listGVK` is the Go text of the group-version-kind of what is converted
   * (`<group>/<version>, Kind=<ListKind>` for a list, `/, Kind=` for a single object), for
   * upstream's messages.
   * @returns the converted objects as the strategy produced them (count and content are checked
   *   by the caller); the inputs are not modified.
   * @throws Error with upstream's text.
   */
  convert(objects: readonly Obj[], toAPIVersion: string, listGVK: string, signal?: AbortSignal): Promise<Obj[]>;
  /** Releases what the strategy holds (pooled connections). */
  close(): void;
}

/** `None`: the objects with `apiVersion` set to the desired one; nothing else changes (shallow copies). */
export const nopConversion: ConversionStrategy = {
  convert: async (objects, toAPIVersion) => objects.map((o) => ({ ...o, apiVersion: toAPIVersion })),
  close: () => undefined,
};
