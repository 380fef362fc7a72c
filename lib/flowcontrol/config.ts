/**
 * Digesting FlowSchemas and PriorityLevelConfigurations into a configuration (upstream v1.30
 * apf_controller.go `digestConfigObjects`): the schemas in matching order (those naming a
 * missing level are dangling and never match), the levels with their limits under the server's
 * concurrency limit, and the mandatory `exempt` and `catch-all` objects imagined when missing.
 */
import type { Obj } from '../apis/define.js';
import { CATCH_ALL, EXEMPT, mandatoryFlowSchemas, mandatoryPriorityLevels } from '../apis/flowcontrol/v1/index.js';
import { type DigestedFlowSchema, digestFlowSchema, sortFlowSchemas } from './classifier.js';
import { computeLimits, type LevelLimits } from './concurrency.js';
import type { QueuingConfig } from './queueset.js';

/** A PriorityLevelConfiguration as the dispatcher uses it. */
export interface DigestedLevel {
  name: string;
  uid: string;
  exempt: boolean;
  /** `limited.limitResponse.queuing` when the type is Queue; absent: Reject (or exempt). */
  queuing?: QueuingConfig;
  limits: LevelLimits;
}

/** A digested configuration. */
export interface DigestedConfig {
  /** Non-dangling schemas, in matching order. */
  schemas: DigestedFlowSchema[];
  levels: Map<string, DigestedLevel>;
  /** Each schema's name → the level it names and whether that level exists. */
  references: Map<string, { level: string; found: boolean }>;
}

const isDeleting = (o: Obj) => Boolean((o.metadata as Obj | undefined)?.deletionTimestamp);

/** Digests the objects under a server limit of `serverLimit` seats. */
export function digestConfig(flowSchemas: readonly Obj[], priorityLevels: readonly Obj[], serverLimit: number): DigestedConfig {
  const pls = priorityLevels.filter((o) => !isDeleting(o));
  const names = new Set(pls.map((o) => (o.metadata as Obj).name as string));
  for (const m of mandatoryPriorityLevels()) if (!names.has(m.metadata.name)) pls.push(m);
  const specs = pls.map((o) => (o.spec ?? {}) as Obj);
  const limits = computeLimits(
    serverLimit,
    specs.map((s) => {
      const exempt = s.type === 'Exempt';
      const l = ((exempt ? s.exempt : s.limited) ?? {}) as Obj;
      return {
        exempt,
        shares: (l.nominalConcurrencyShares as number | undefined) ?? (exempt ? 0 : 30),
        lendablePercent: (l.lendablePercent as number | undefined) ?? 0,
        borrowingLimitPercent: l.borrowingLimitPercent as number | undefined,
      };
    }),
  );
  const levels = new Map<string, DigestedLevel>();
  pls.forEach((o, i) => {
    const s = specs[i]!;
    const meta = o.metadata as Obj;
    const response = ((s.limited as Obj | undefined)?.limitResponse ?? {}) as Obj;
    const q = response.type === 'Queue' ? ((response.queuing ?? {}) as Obj) : undefined;
    levels.set(meta.name as string, {
      name: meta.name as string,
      uid: (meta.uid as string | undefined) ?? '',
      exempt: s.type === 'Exempt',
      ...(q && { queuing: { queues: (q.queues as number) || 64, handSize: (q.handSize as number) || 8, queueLengthLimit: (q.queueLengthLimit as number) || 50 } }),
      limits: limits[i]!,
    });
  });
  const fss = flowSchemas.filter((o) => !isDeleting(o));
  const fsNames = new Set(fss.map((o) => (o.metadata as Obj).name as string));
  for (const m of mandatoryFlowSchemas()) if (!fsNames.has(m.metadata.name)) fss.push(m);
  const references = new Map<string, { level: string; found: boolean }>();
  const schemas: DigestedFlowSchema[] = [];
  for (const o of fss) {
    const d = digestFlowSchema(o);
    const found = levels.has(d.priorityLevel);
    references.set(d.name, { level: d.priorityLevel, found });
    if (found) schemas.push(d);
  }
  return { schemas: sortFlowSchemas(schemas), levels, references };
}

/** The names of the mandatory levels (requests fall to catch-all when no schema matches). */
export const MANDATORY = { exempt: EXEMPT, catchAll: CATCH_ALL } as const;
