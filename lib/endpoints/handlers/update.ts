/**
 * PUT of an object or subresource (spec 000 § Update rules): a stale resourceVersion is 409;
 * PUT on a missing object creates it where the kind allows (201), with `create` permission too
 * (create-authorization.ts).
 */
import { deepCopy } from '../../apimachinery/deep-equal.js';
import { newBadRequest } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import { readBody } from './body.js';
import { createAuthorization } from './create-authorization.js';
import { decodeBodyObject } from './decode-object.js';
import { admissionAttributes, type ObjectScope, recordWrite, toStorage, writeObject } from './scope.js';
import { managerOf } from './field-manager.js';
import { parseWriteOptions } from './write-options.js';

/** Serves `update`. */
export async function handleUpdate(s: ObjectScope): Promise<void> {
  const opts = parseWriteOptions(s.query, 'UpdateOptions');
  const body = await readBody(s.koa.req);
  const obj = toStorage(s, decodeBodyObject(s.req, s.kind, s.koa.get('Content-Type'), body, opts.fieldValidation, s.upstreamAliases));
  const meta = (obj.metadata ??= {}) as Obj;
  if (meta.name === undefined || meta.name === '') meta.name = s.name;
  if (meta.name !== s.name) {
    throw newBadRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${s.name})`);
  }
  const manager = managerOf(opts.fieldManager, s.req.userAgent);
  const authorizeCreate = createAuthorization(s);
  const { obj: stored, created } = await s.store.update(
    s.req,
    s.namespace,
    s.name,
    async (current) => {
      // A fresh copy for each attempt (a conflict runs this again); deepCopy is ~7× cheaper than structuredClone on a Pod.
      const next = deepCopy(obj);
      // Managed fields first, as upstream: what mutating admission adds belongs to no manager.
      recordWrite(s, current ?? undefined, next, manager);
      await s.admission.admit(s.req, admissionAttributes(s, current ? 'UPDATE' : 'CREATE', next, current, opts.dryRun));
      return next;
    },
    {
      dryRun: opts.dryRun,
      // The current object is only read: the old object of managed fields and admission.
      transformReadsOnly: true,
      createValidation: async (o) => {
        await authorizeCreate();
        await s.admission.validate(s.req, admissionAttributes(s, 'CREATE', o, null, opts.dryRun));
      },
      updateValidation: async (o, old) => s.admission.validate(s.req, admissionAttributes(s, 'UPDATE', o, old, opts.dryRun)),
    },
  );
  await writeObject(s, created ? 201 : 200, stored);
}
