/** POST to a collection (spec 000 § Resource operations: Create; § Modifying-request query parameters). */
import { readBody } from './body.js';
import { decodeBodyObject } from './decode-object.js';
import { admissionAttributes, type Scope, recordWrite, toStorage, writeObject } from './scope.js';
import { managerOf } from './field-manager.js';
import { parseWriteOptions } from './write-options.js';

/** Serves `create`: 201 with the stored object (200 is never used for a create). */
export async function handleCreate(s: Scope): Promise<void> {
  const opts = parseWriteOptions(s.query, 'CreateOptions');
  const body = await readBody(s.koa.req);
  const obj = toStorage(s, decodeBodyObject(s.req, s.entry.kind, s.koa.get('Content-Type'), body, opts.fieldValidation, s.upstreamAliases));
  const attrs = admissionAttributes(s, 'CREATE', obj, null, opts.dryRun);
  // Managed fields first, as upstream: what mutating admission adds belongs to no manager.
  recordWrite(s, undefined, obj, managerOf(opts.fieldManager, s.req.userAgent));
  await s.admission.admit(s.req, attrs);
  const created = await s.store.create(s.req, s.namespace, obj, {
    dryRun: opts.dryRun,
    validate: async (o) => s.admission.validate(s.req, { ...attrs, object: o, name: ((o.metadata as Record<string, unknown>)?.name as string) ?? attrs.name }),
  });
  await writeObject(s, 201, created);
}
