/**
 * A closure made by a function that takes a hook, run far from the call that made it (client-go's
 * generated informers: the list function applies `tweakListOptions` when one was given). Where
 * only another program's code passes a hook, the trace of this one does not take the call for one
 * into an unknown value: nothing is passed there here. Where a call of this program passes a
 * function the index cannot follow, the call stays, with nothing known of what it runs.
 */
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../src/trace/types.js';
import { tracedFixture } from '../helpers/traced-fixture.js';

const mod = 'example.com/tweak-passed-by-other-program';
const listFunc = `${mod}/informers.NewFilteredInformer$1`;
const tweakSlot = `${mod}/informers.NewFilteredInformer#tweak`;

describe('a hook only other programs pass', () => {
  const traceOf = tracedFixture('tweak-passed-by-other-program');
  const trace = (root: string, tablesOnly = false): Promise<Trace> => traceOf(root, { tablesOnly });
  const callees = (t: Trace) =>
    t.edges
      .filter((e) => e.caller === listFunc)
      .map((e) => e.callee)
      .sort();

  it('runs the hook the program passes', async () => {
    const t = await trace('kube-proxy');
    expect(callees(t)).toEqual([
      `${mod}/cmd/kube-proxy.listServices`,
      `${mod}/cmd/kube-proxy.main$1`,
    ]);
  });

  it('leaves out the call where only another program passes one', async () => {
    const t = await trace('kube-controller-manager');
    expect(callees(t)).toEqual([`${mod}/cmd/kube-controller-manager.listPods`]);
    expect(t.nodes.map((n) => n.symbol)).not.toContain(tweakSlot);
  });

  it('keeps the call where the program passes a function the index cannot follow', async () => {
    const t = await trace('kube-scheduler');
    expect(callees(t)).toEqual([`${mod}/cmd/kube-scheduler.listNodes`, tweakSlot]);
  });

  it('reads the same from the tables as from the trace record', async () => {
    for (const root of ['kube-controller-manager', 'kube-scheduler'])
      expect((await trace(root, true)).edges).toEqual((await trace(root)).edges);
  });
});
