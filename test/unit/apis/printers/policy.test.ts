import { expect } from 'chai';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { podDisruptionBudget } from '../../../../lib/apis/policy/v1/index.js';
import { cellsOf, meta, NOW } from './helpers.js';

const pdb = (spec: object, disruptionsAllowed?: number) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: meta('web', 3600),
  spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  ...(disruptionsAllowed === undefined ? {} : { status: { disruptionsAllowed, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 } }),
});

describe('apis/printers: PodDisruptionBudget', () => {
  it('declares Name, Min Available, Max Unavailable, Allowed Disruptions, Age as upstream', () => {
    const table = tableFor(podDisruptionBudget, pdb({ minAvailable: 1 }, 1), { now: NOW, includeObject: 'None' });
    expect(table.columnDefinitions!.map((c) => [c.name, c.type])).to.deep.equal([
      ['Name', 'string'],
      ['Min Available', 'string'],
      ['Max Unavailable', 'string'],
      ['Allowed Disruptions', 'integer'],
      ['Age', 'string'],
    ]);
  });

  it('prints minAvailable as a number and N/A for the unset maxUnavailable', () => {
    expect(cellsOf(podDisruptionBudget, pdb({ minAvailable: 2 }, 1))).to.deep.equal(['web', '2', 'N/A', 1, '60m']);
  });

  it('prints a percentage maxUnavailable, N/A for minAvailable, and 0 allowed disruptions without a status', () => {
    expect(cellsOf(podDisruptionBudget, pdb({ maxUnavailable: '25%' }))).to.deep.equal(['web', 'N/A', '25%', 0, '60m']);
  });

  it('prints minAvailable 0 as 0, not N/A', () => {
    expect(cellsOf(podDisruptionBudget, pdb({ minAvailable: 0 }, 3))[1]).to.equal('0');
  });
});
