import { expect } from 'chai';
import { NodeGraph } from '../../../lib/authorization/node/graph.js';
import type { Informer, InformerHandler } from '../../../lib/client/informer.js';
import { populateNodeGraph } from '../../../lib/controlplane/node-authorization.js';
import type { StoredObject } from '../../../lib/storage/interface.js';

/** Feeds the populator's pod handler directly: the informer's events as a test writes them. */
function populated(): { graph: NodeGraph; send: InformerHandler } {
  const graph = new NodeGraph();
  let handler: InformerHandler | undefined;
  populateNodeGraph(graph, { pods: { addHandler: (h: InformerHandler) => (handler = h) } as unknown as Informer });
  return { graph, send: (type, obj, old) => handler!(type, obj, old) };
}

function pod(opts: { uid?: string; node?: string; claimStatus?: string; phase?: string } = {}): StoredObject {
  return {
    metadata: { namespace: 'ns', name: 'web', uid: opts.uid ?? 'uid-1' },
    spec: {
      ...(opts.node !== undefined && { nodeName: opts.node }),
      containers: [{ name: 'c', envFrom: [{ secretRef: { name: 'env-secret' } }] }],
      resourceClaims: [{ name: 'tpl', source: { resourceClaimTemplateName: 'tpl' } }],
    },
    status: { phase: opts.phase ?? 'Pending', ...(opts.claimStatus && { resourceClaimStatuses: [{ name: 'tpl', resourceClaimName: opts.claimStatus }] }) },
  };
}

describe('the Node authorizer graph populator (spec 001 § Node authorization): edges follow the informer\'s events and their previous objects', () => {
  const readsSecret = (g: NodeGraph, node: string) => g.hasPathFrom(node, 'secret', 'ns', 'env-secret');

  it('adds a pod once bound, keeps it through updates that change no edge, and removes it when deleted', () => {
    const { graph, send } = populated();
    const unbound = pod();
    send('ADDED', unbound, undefined);
    expect(readsSecret(graph, 'node-a')).to.equal(false);
    const bound = pod({ node: 'node-a' });
    send('MODIFIED', bound, unbound);
    expect(readsSecret(graph, 'node-a')).to.equal(true);
    const running = pod({ node: 'node-a', phase: 'Running' });
    send('MODIFIED', running, bound);
    expect(readsSecret(graph, 'node-a')).to.equal(true);
    send('DELETED', running, running);
    expect(readsSecret(graph, 'node-a')).to.equal(false);
  });

  it('adds the edge of a resource claim that a status update names', () => {
    const { graph, send } = populated();
    const bound = pod({ node: 'node-a' });
    send('ADDED', bound, undefined);
    expect(graph.hasPathFrom('node-a', 'resourceclaim', 'ns', 'web-tpl-x')).to.equal(false);
    send('MODIFIED', pod({ node: 'node-a', claimStatus: 'web-tpl-x' }), bound);
    expect(graph.hasPathFrom('node-a', 'resourceclaim', 'ns', 'web-tpl-x')).to.equal(true);
  });

  it('moves the edges of a pod replaced under the same name (a new uid) to its new node', () => {
    const { graph, send } = populated();
    const first = pod({ node: 'node-a' });
    send('ADDED', first, undefined);
    send('MODIFIED', pod({ uid: 'uid-2', node: 'node-b' }), first);
    expect([readsSecret(graph, 'node-a'), readsSecret(graph, 'node-b')]).to.deep.equal([false, true]);
  });
});
