import { expect } from 'chai';
import { ConversionError, conversionErrorStatus } from '../../../../lib/apiextensions/conversion/errors.js';
import { newCustomResourceConverter } from '../../../../lib/apiextensions/conversion/converter.js';
import type { CustomResourceDefinition } from '../../../../lib/apiextensions/types.js';

type Obj = Record<string, unknown>;

function crd(conversion?: CustomResourceDefinition['spec']['conversion']): CustomResourceDefinition {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: [
        { name: 'v1', served: true, storage: true },
        { name: 'v2', served: true, storage: false },
        { name: 'v3', served: false, storage: false },
      ],
      ...(conversion && { conversion }),
    },
  };
}

const widget = (apiVersion: string, name = 'a'): Obj => ({ apiVersion, kind: 'Widget', metadata: { name, namespace: 'ns', labels: { x: 'y' } }, spec: { size: 1 } });

async function failure(p: Promise<unknown>): Promise<ConversionError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(ConversionError);
    return err as ConversionError;
  }
  throw new Error('expected a ConversionError');
}

describe('apiextensions conversion: the converter (None strategy)', () => {
  const none = newCustomResourceConverter(crd({ strategy: 'None' }));

  it('rewrites apiVersion only, keeping order and leaving the inputs alone', async () => {
    const a = widget('example.com/v1', 'a');
    const b = widget('example.com/v2', 'b');
    const before = structuredClone(a);
    const out = await none.convert([a, b], 'example.com/v2');
    expect(out).to.deep.equal([{ ...before, apiVersion: 'example.com/v2' }, b]);
    expect(out[1]).to.equal(b);
    expect(a).to.deep.equal(before);
  });

  it('returns the objects already in the desired version as they are', async () => {
    const a = widget('example.com/v1');
    const out = await none.convert([a], 'example.com/v1');
    expect(out[0]).to.equal(a);
  });

  it('converts to and from a version that is listed but not served', async () => {
    const out = await none.convert([widget('example.com/v3')], 'example.com/v1');
    expect(out[0]!.apiVersion).to.equal('example.com/v1');
  });

  it('is the strategy when the CRD names none', async () => {
    const out = await newCustomResourceConverter(crd()).convert([widget('example.com/v1')], 'example.com/v2');
    expect(out[0]!.apiVersion).to.equal('example.com/v2');
  });

  it('converts an empty list to an empty list', async () => {
    expect(await none.convert([], 'example.com/v2', undefined, 'WidgetList')).to.deep.equal([]);
  });

  const refusals: Array<[string, Obj[], string, string | undefined, string]> = [
    ['a desired version the CRD does not list', [widget('example.com/v1')], 'example.com/v9', undefined, 'request to convert CR to an invalid group/version: example.com/v9'],
    ['a desired version of another group', [widget('example.com/v1')], 'other.com/v1', undefined, 'request to convert CR to an invalid group/version: other.com/v1'],
    ['an object of a version the CRD does not list', [widget('example.com/v7')], 'example.com/v1', undefined, 'request to convert CR from an invalid group/version: example.com/v7'],
    ['an object without apiVersion', [{ kind: 'Widget' }], 'example.com/v1', undefined, 'request to convert CR from an invalid group/version: '],
    [
      'a list item of a version the CRD does not list',
      [widget('example.com/v1'), widget('example.com/v8')],
      'example.com/v2',
      'WidgetList',
      'request to convert CR list failed, list index 1 has invalid group/version: example.com/v8',
    ],
  ];
  for (const [name, objects, to, listKind, message] of refusals) {
    it(`refuses ${name}`, async () => {
      const err = await failure(none.convert(objects, to, undefined, listKind));
      expect(err.message).to.equal(message);
    });
  }

  it('fails every conversion of a CRD with an unknown strategy', async () => {
    const err = await failure(newCustomResourceConverter(crd({ strategy: 'Magic' })).convert([widget('example.com/v1')], 'example.com/v2'));
    expect(err.message).to.equal('unknown conversion strategy "Magic" for CRD widgets.example.com');
  });

  it('converts an object of only apiVersion and kind without asking a webhook', async () => {
    const hook = newCustomResourceConverter(crd({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://127.0.0.1:1/' } } }));
    expect(await hook.convert([{ apiVersion: 'example.com/v1', kind: 'Widget' }], 'example.com/v2')).to.deep.equal([{ apiVersion: 'example.com/v2', kind: 'Widget' }]);
  });

  it('fails a webhook CRD whose conversionReviewVersions this server does not speak', async () => {
    const hook = newCustomResourceConverter(crd({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v2'], clientConfig: { url: 'https://127.0.0.1:1/' } } }));
    const err = await failure(hook.convert([widget('example.com/v1')], 'example.com/v2'));
    expect(err.message).to.equal('conversion for example.com/v1, Kind=Widget failed: no supported conversion review versions');
  });

  it('fails a webhook CRD without a client configuration', async () => {
    const hook = newCustomResourceConverter(crd({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } }));
    const err = await failure(hook.convert([widget('example.com/v1')], 'example.com/v2'));
    expect(err.message).to.equal('conversion for example.com/v1, Kind=Widget failed: conversion webhook for /, Kind= failed: webhook configuration must have either service or URL');
  });

  it('logs the failures it throws', async () => {
    const logged: string[] = [];
    const c = newCustomResourceConverter(crd({ strategy: 'None' }), { log: (m) => logged.push(m) });
    await failure(c.convert([widget('example.com/v1')], 'example.com/v9'));
    expect(logged).to.deep.equal(['request to convert CR to an invalid group/version: example.com/v9']);
  });
});

describe('apiextensions conversion: conversionErrorStatus', () => {
  it('is a 500 without reason carrying the message, as upstream ErrorToAPIStatus gives a plain error', () => {
    const s = conversionErrorStatus(new ConversionError('conversion for example.com/v1, Kind=Widget failed: boom')).status;
    expect(JSON.stringify(s)).to.equal(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"conversion for example.com/v1, Kind=Widget failed: boom","code":500}',
    );
  });
});
