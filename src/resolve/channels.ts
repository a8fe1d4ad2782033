/**
 * Channels are hand-offs: a send on a channel reaches the functions that receive from the same
 * channel. "The same" is where the channel value comes from (src/resolve/value-flow.ts,
 * `channelOrigins`): the struct field or package variable it is kept in, or the `make` of a local,
 * followed through parameters and returns. The informer pipeline (`processorListener.add -> pop ->
 * run`), the kubelet's pod-config and PLEG channels and kube-proxy's runner come out of this one
 * mechanism.
 */
import { push } from '../shared/multimap.js';
import type { FuncRef } from './model.js';
import { both, through, type Needs } from './needs.js';
import type { LinkContext } from './frameworks/handler.js';
import type { Expr } from '../index/facts.js';
import type { Ctx } from './type-checker.js';

/** Receivers kept per channel: past this, a channel is a broadcast no reader follows edge by edge. */
const MAX_RECEIVERS = 16;

/**
 * `sameValue` is told of each hand-off through a channel field of the method's own receiver on
 * both sides (`bfr.run <- x` in `Run`, `<-bfr.run` in `Loop`): the receiving method runs on the
 * value the sender had.
 */
export function linkChannels(
  link: LinkContext,
  sameValue?: (sender: FuncRef, receiver: FuncRef, line: number) => void,
): void {
  const { model, flow, out, types } = link;
  const own = (ch: Expr, ctx: Ctx) => ch[0] === 's' && types.isReceiver(ch[1], ctx);
  const receivers = new Map<string, { fn: FuncRef; needs: Needs; own: boolean }[]>();
  for (const file of model.files) {
    for (const r of file.facts.recvs) {
      const fn = model.funcs[file.funcIds[r.fn] ?? -1];
      if (!fn) continue;
      const ctx: Ctx = { file, fn: r.fn, line: r.line };
      for (const o of flow.channelOrigins(r.ch, ctx)) {
        const list = receivers.get(o.key);
        if (list?.some((x) => x.fn === fn)) continue;
        push(receivers, o.key, { fn, needs: through(o.needs, fn.pkg.path), own: own(r.ch, ctx) });
      }
    }
  }
  for (const file of model.files) {
    for (const s of file.facts.sends) {
      const sender = model.funcs[file.funcIds[s.fn] ?? -1];
      if (!sender) continue;
      const ctx: Ctx = { file, fn: s.fn, line: s.line };
      const done = new Set<number>();
      const sentOwn = own(s.ch, ctx);
      for (const o of flow.channelOrigins(s.ch, ctx)) {
        const list = receivers.get(o.key) ?? [];
        if (list.length > MAX_RECEIVERS) continue;
        for (const r of list) {
          if (r.fn === sender || done.has(r.fn.id)) continue;
          done.add(r.fn.id);
          out.add(sender, r.fn, 'channel', {
            via: `chan ${o.label}`,
            line: s.line,
            col: 0,
            needs: both(o.needs, r.needs),
          });
          if (sentOwn && r.own) sameValue?.(sender, r.fn, s.line);
        }
      }
    }
  }
}
