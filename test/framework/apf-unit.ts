/**
 * Helpers of the flow-control unit tests: an informer over fixed objects (the APF controller's
 * configuration) and a gauge's value in a registry.
 */
import type { Obj } from '../../lib/apis/define.js';
import type { Informer } from '../../lib/client/informer.js';
import type { StabilityRegistry } from '../../lib/metrics/registry.js';

/** An informer over fixed objects: synced at once, never changing. */
export function fixedInformer(objects: Obj[]): Informer {
  return {
    addHandler: () => undefined,
    run: () => new Promise<void>(() => undefined),
    waitForSync: () => Promise.resolve(),
    list: () => objects,
  } as unknown as Informer;
}

/** The value of gauge `name` for priority level `pl` (pl undefined: the unlabelled value), undefined when absent. */
export async function gauge(r: StabilityRegistry, name: string, pl?: string): Promise<number | undefined> {
  const m = await r.registry.getSingleMetric(name)!.get();
  return m.values.find((v) => v.labels.priority_level === pl)?.value;
}
