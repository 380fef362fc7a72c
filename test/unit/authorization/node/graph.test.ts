import { expect } from 'chai';
import { DESTINATION_INDEX_THRESHOLD, NodeGraph, type PodReferences } from '../../../../lib/authorization/node/graph.js';

/** A bound pod referring to nothing unless told. */
function pod(p: Partial<PodReferences> & { name: string; nodeName: string }): PodReferences {
  return { namespace: 'ns', mirror: false, serviceAccountName: '', secrets: [], configMaps: [], claims: [], resourceClaims: [], ...p };
}

describe('Node authorizer graph (spec 001 § Node authorization)', () => {
  it('relates the secrets, config maps, claims, resource claims and service account of a bound pod to its node', () => {
    const g = new NodeGraph();
    g.addPod(pod({ name: 'p', nodeName: 'n1', serviceAccountName: 'sa', secrets: ['s'], configMaps: ['cm'], claims: ['pvc'], resourceClaims: ['rc'] }));
    for (const [type, name] of [
      ['secret', 's'],
      ['configmap', 'cm'],
      ['pvc', 'pvc'],
      ['resourceclaim', 'rc'],
      ['serviceAccount', 'sa'],
      ['pod', 'p'],
    ] as const) {
      expect(g.hasPathFrom('n1', type, 'ns', name), `${type} ${name}`).to.equal(true);
      expect(g.hasPathFrom('n2', type, 'ns', name), `${type} ${name} from n2`).to.equal(false);
    }
  });

  it('relates nothing of another namespace or another name', () => {
    const g = new NodeGraph();
    g.addPod(pod({ name: 'p', nodeName: 'n1', secrets: ['s'] }));
    expect(g.hasPathFrom('n1', 'secret', 'other', 's')).to.equal(false);
    expect(g.hasPathFrom('n1', 'secret', 'ns', 't')).to.equal(false);
    expect(g.hasPathFrom('n1', 'configmap', 'ns', 's')).to.equal(false);
  });

  it('gives a mirror pod only its edge to the node', () => {
    const g = new NodeGraph();
    g.addPod(pod({ name: 'm', nodeName: 'n1', mirror: true, secrets: ['s'], serviceAccountName: 'sa' }));
    expect(g.hasPathFrom('n1', 'pod', 'ns', 'm')).to.equal(true);
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).to.equal(false);
    expect(g.hasPathFrom('n1', 'serviceAccount', 'ns', 'sa')).to.equal(false);
  });

  it('forgets a deleted pod and the objects only it referred to', () => {
    const g = new NodeGraph();
    g.addPod(pod({ name: 'p', nodeName: 'n1', secrets: ['s'] }));
    g.deletePod('ns', 'p');
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).to.equal(false);
    expect(g.size).to.equal(0);
  });

  it('keeps a secret two pods on the node share until the last one goes', () => {
    const g = new NodeGraph();
    g.addPod(pod({ name: 'a', nodeName: 'n1', secrets: ['s'] }));
    g.addPod(pod({ name: 'b', nodeName: 'n1', secrets: ['s'] }));
    g.deletePod('ns', 'a');
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).to.equal(true);
    g.deletePod('ns', 'b');
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).to.equal(false);
  });

  it('follows a secret from one node to another when the pod using it is replaced on another node', () => {
    const g = new NodeGraph();
    g.addPod(pod({ name: 'p', nodeName: 'n1', secrets: ['s'] }));
    g.addPod(pod({ name: 'p', nodeName: 'n2', secrets: ['s'] }));
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).to.equal(false);
    expect(g.hasPathFrom('n2', 'secret', 'ns', 's')).to.equal(true);
  });

  it('moves access when a replaced pod refers to other secrets', () => {
    const g = new NodeGraph();
    g.addPod(pod({ name: 'p', nodeName: 'n1', secrets: ['old'] }));
    g.addPod(pod({ name: 'p', nodeName: 'n1', secrets: ['new'] }));
    expect(g.hasPathFrom('n1', 'secret', 'ns', 'old')).to.equal(false);
    expect(g.hasPathFrom('n1', 'secret', 'ns', 'new')).to.equal(true);
  });

  it('keeps each node to its own pods when a secret is shared across nodes', () => {
    const g = new NodeGraph();
    g.addPod(pod({ name: 'a', nodeName: 'n1', secrets: ['s'] }));
    g.addPod(pod({ name: 'b', nodeName: 'n2', secrets: ['s'] }));
    g.deletePod('ns', 'a');
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).to.equal(false);
    expect(g.hasPathFrom('n2', 'secret', 'ns', 's')).to.equal(true);
  });

  it('relates a bound volume and its secrets through the claim a pod on the node uses (node <- pod <- pvc <- pv <- secret)', () => {
    const g = new NodeGraph();
    g.addPV({ name: 'pv', claim: { namespace: 'ns', name: 'pvc' }, secrets: [{ namespace: 'sec', name: 'pv-secret' }] });
    expect(g.hasPathFrom('n1', 'pv', '', 'pv')).to.equal(false);
    g.addPod(pod({ name: 'p', nodeName: 'n1', claims: ['pvc'] }));
    expect(g.hasPathFrom('n1', 'pv', '', 'pv')).to.equal(true);
    expect(g.hasPathFrom('n1', 'secret', 'sec', 'pv-secret')).to.equal(true);
    expect(g.hasPathFrom('n2', 'secret', 'sec', 'pv-secret')).to.equal(false);
    g.addPV({ name: 'pv', secrets: [] });
    expect(g.hasPathFrom('n1', 'pv', '', 'pv')).to.equal(false);
    expect(g.hasPathFrom('n1', 'secret', 'sec', 'pv-secret')).to.equal(false);
    expect(g.hasPathFrom('n1', 'pvc', 'ns', 'pvc')).to.equal(true);
  });

  it('relates a volume attachment to the node it names, and forgets it when deleted', () => {
    const g = new NodeGraph();
    g.addVolumeAttachment('va', 'n1');
    expect(g.hasPathFrom('n1', 'volumeattachment', '', 'va')).to.equal(true);
    expect(g.hasPathFrom('n2', 'volumeattachment', '', 'va')).to.equal(false);
    g.addVolumeAttachment('va', 'n2');
    expect(g.hasPathFrom('n1', 'volumeattachment', '', 'va')).to.equal(false);
    g.deleteVolumeAttachment('va');
    expect(g.size).to.equal(0);
  });

  it('answers from the object it is asked about, whatever the size of the graph', () => {
    const g = new NodeGraph();
    for (let i = 0; i < 2000; i++) g.addPod(pod({ name: `p${i}`, nodeName: `n${i % 50}`, secrets: ['shared', `own-${i}`] }));
    expect(g.hasPathFrom('n7', 'secret', 'ns', 'own-7')).to.equal(true);
    expect(g.hasPathFrom('n7', 'secret', 'ns', 'own-8')).to.equal(false);
    expect(g.hasPathFrom('n49', 'secret', 'ns', 'shared')).to.equal(true);
    for (let i = 0; i < 2000; i++) g.deletePod('ns', `p${i}`);
    expect(g.size).to.equal(0);
  });

  it('answers the same below and above the destination index threshold, as pods come and go', () => {
    const g = new NodeGraph();
    const many = DESTINATION_INDEX_THRESHOLD + 50;
    // One shared config map: each pod adds an edge from it, toward the pod's node (two pods a node).
    const reach = (node: string) => g.hasPathFrom(node, 'configmap', 'ns', 'shared');
    const nodes = (n: number) => Array.from({ length: n }, (_, i) => `n${Math.floor(i / 2)}`);
    for (const [i, node] of nodes(many).entries()) {
      g.addPod(pod({ name: `p${i}`, nodeName: node, configMaps: ['shared'] }));
      if (i === DESTINATION_INDEX_THRESHOLD - 1 || i === DESTINATION_INDEX_THRESHOLD + 1) {
        expect(reach(node), `${i + 1} pods`).to.equal(true);
        expect(reach(`n${many}`), `${i + 1} pods, a node with none`).to.equal(false);
      }
    }
    expect(nodes(many).every(reach)).to.equal(true);
    // Down below the threshold again: a node keeps its access while one of its two pods is left.
    for (let i = 0; i < many - 10; i++) {
      g.deletePod('ns', `p${i}`);
      expect(reach(`n${Math.floor(i / 2)}`), `after deleting p${i}`).to.equal(i % 2 === 0);
    }
    expect(nodes(many).slice(many - 10).every(reach)).to.equal(true);
    g.addPod(pod({ name: 'moved', nodeName: 'elsewhere', configMaps: ['shared'] }));
    g.addPod(pod({ name: 'moved', nodeName: 'n0', configMaps: ['shared'] }));
    expect(reach('elsewhere')).to.equal(false);
    expect(reach('n0')).to.equal(true);
  });
});
