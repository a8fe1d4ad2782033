import { describe, expect, it } from 'vitest';
import { DeltaFIFO, ErrFIFOClosed, ErrRequeue, type Deltas } from '../../src/twins/deltafifo.js';
import { Indexer } from '../../src/twins/indexer.js';
import { DeletedFinalStateUnknown, type CacheEntry } from '../../src/twins/objects.js';
import { VirtualClock } from '../../src/twins/sim/clock.js';
import { pod, runProc } from './harness.js';

const types = (deltas: Deltas | undefined) => deltas?.map((d) => d.type);

function popAll(
  fifo: DeltaFIFO,
  process: (d: Deltas) => Error | undefined = () => undefined,
): Deltas[] {
  const clock = new VirtualClock();
  const popped: Deltas[] = [];
  while (fifo.length > 0) popped.push(runProc(clock, fifo.pop(process)).deltas!);
  return popped;
}

describe('DeltaFIFO', () => {
  it('queues a key once while its deltas pile up, and pops them together, oldest first', () => {
    const fifo = new DeltaFIFO();
    fifo.add(pod('a', { rv: '1' }));
    fifo.add(pod('b', { rv: '2' }));
    fifo.update(pod('a', { rv: '3' }));
    expect(fifo.listKeys()).toEqual(['default/a', 'default/b']);
    const [first, second] = popAll(fifo);
    expect(types(first)).toEqual(['Added', 'Updated']);
    expect(types(second)).toEqual(['Added']);
  });

  it('collapses two consecutive deletes into one', () => {
    const fifo = new DeltaFIFO();
    fifo.add(pod('a'));
    fifo.delete(pod('a', { rv: '2' }));
    fifo.delete(pod('a', { rv: '3' }));
    expect(types(fifo.getByKey('default/a'))).toEqual(['Added', 'Deleted']);
  });

  it('keeps the delete with a real final state over a tombstone when collapsing', () => {
    const fifo = new DeltaFIFO();
    fifo.add(pod('a'));
    const real = pod('a', { rv: '2' });
    fifo.delete(real);
    fifo.delete(new DeletedFinalStateUnknown('default/a', pod('a', { rv: '1' })));
    const deltas = fifo.getByKey('default/a')!;
    expect(types(deltas)).toEqual(['Added', 'Deleted']);
    expect(deltas[1]!.object).toBe(real);
  });

  it('ignores a delete for a key that is neither known nor pending', () => {
    const fifo = new DeltaFIFO({ knownObjects: new Indexer() });
    fifo.delete(pod('ghost'));
    expect(fifo.length).toBe(0);
  });

  it('turns a known object missing from a relist into a DeletedFinalStateUnknown tombstone', () => {
    const known = new Indexer();
    known.add(pod('a', { rv: '1' }));
    known.add(pod('b', { rv: '2' }));
    const fifo = new DeltaFIFO({ knownObjects: known, emitDeltaTypeReplaced: true });
    fifo.replace([pod('a', { rv: '1' })], '5');
    expect(types(fifo.getByKey('default/a'))).toEqual(['Replaced']);
    const deleted = fifo.getByKey('default/b')!;
    expect(types(deleted)).toEqual(['Deleted']);
    expect(deleted[0]!.object).toBeInstanceOf(DeletedFinalStateUnknown);
    expect((deleted[0]!.object as DeletedFinalStateUnknown).obj?.metadata.resourceVersion).toBe(
      '2',
    );
  });

  it('uses Sync for relisted objects unless told to emit Replaced', () => {
    const fifo = new DeltaFIFO();
    fifo.replace([pod('a')], '1');
    expect(types(fifo.getByKey('default/a'))).toEqual(['Sync']);
  });

  it('has synced only once every item of the first list has been popped', () => {
    const fifo = new DeltaFIFO({ knownObjects: new Indexer() });
    expect(fifo.hasSynced()).toBe(false);
    fifo.replace([pod('a'), pod('b')], '3');
    const clock = new VirtualClock();
    runProc(
      clock,
      fifo.pop(() => undefined),
    );
    expect(fifo.hasSynced()).toBe(false);
    runProc(
      clock,
      fifo.pop(() => undefined),
    );
    expect(fifo.hasSynced()).toBe(true);
  });

  it('puts popped deltas back when the process function asks for a requeue', () => {
    const fifo = new DeltaFIFO();
    fifo.add(pod('a'));
    const clock = new VirtualClock();
    const failed = runProc(
      clock,
      fifo.pop(() => new ErrRequeue(new Error('try later'))),
    );
    expect(failed.err?.message).toBe('try later');
    expect(types(fifo.getByKey('default/a'))).toEqual(['Added']);
    const again = runProc(
      clock,
      fifo.pop(() => undefined),
    );
    expect(again.err).toBeUndefined();
    expect(fifo.length).toBe(0);
  });

  it('does not requeue over newer deltas that arrived while processing', () => {
    const fifo = new DeltaFIFO();
    fifo.add(pod('a', { rv: '1' }));
    const clock = new VirtualClock();
    runProc(
      clock,
      fifo.pop(() => {
        fifo.update(pod('a', { rv: '2' }));
        return new ErrRequeue(new Error('x'));
      }),
    );
    expect(types(fifo.getByKey('default/a'))).toEqual(['Updated']);
  });

  it('queues Sync deltas on resync only for known keys with nothing pending', () => {
    const known = new Indexer();
    known.add(pod('a'));
    known.add(pod('b'));
    const fifo = new DeltaFIFO({ knownObjects: known });
    fifo.update(pod('b', { rv: '9' }));
    fifo.resync();
    expect(types(fifo.getByKey('default/a'))).toEqual(['Sync']);
    expect(types(fifo.getByKey('default/b'))).toEqual(['Updated']);
  });

  it('blocks Pop until an item arrives and returns ErrFIFOClosed once closed and empty', () => {
    const clock = new VirtualClock();
    const fifo = new DeltaFIFO();
    const popped: (string | Error)[] = [];
    clock.go(
      (function* () {
        for (;;) {
          const { deltas, err } = yield* fifo.pop(() => undefined);
          if (err === ErrFIFOClosed) {
            popped.push(err);
            return;
          }
          popped.push(
            `${(deltas![0]!.object as CacheEntry & { metadata: { name: string } }).metadata.name}@${clock.now()}`,
          );
        }
      })(),
    );
    clock.after(10, () => fifo.add(pod('late')));
    clock.after(20, () => fifo.close());
    clock.run();
    expect(popped).toEqual(['late@10', ErrFIFOClosed]);
  });
});
