/**
 * Channels are hand-offs: a send on a channel reaches the functions that receive from the same
 * channel. "The same" is where the channel value comes from (src/resolve/value-flow.ts,
 * `channelOrigins`): the struct field or package variable it is kept in, or the `make` of a local,
 * followed through parameters and returns. The informer pipeline (`processorListener.add -> pop ->
 * run`), the kubelet's pod-config and PLEG channels and kube-proxy's runner come out of this one
 * mechanism. A channel kept in a struct that is made in more than one place (a request and its
 * `done`) hands off only between values of the same literal.
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
  const receivers = new Map<
    string,
    {
      fn: FuncRef;
      needs: Needs;
      own: boolean;
      /** The literals each receive site's struct can be (see ChannelOrigin.made). */
      made: (() => ReadonlySet<Expr> | undefined)[];
    }[]
  >();
  for (const file of model.files) {
    for (const r of file.facts.recvs) {
      const fn = model.funcs[file.funcIds[r.fn] ?? -1];
      if (!fn) continue;
      const ctx: Ctx = { file, fn: r.fn, line: r.line };
      for (const o of flow.channelOrigins(r.ch, ctx)) {
        const known = receivers.get(o.key)?.find((x) => x.fn === fn);
        const made = o.made ?? (() => undefined);
        if (known) known.made.push(made);
        else
          push(receivers, o.key, {
            fn,
            needs: through(o.needs, fn.pkg.path),
            own: own(r.ch, ctx),
            made: [made],
          });
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
          // A channel of a struct made apart from the one the receiver reads (each request its own
          // `done`): no hand-off.
          if (madeApart(o.made?.(), r.made)) continue;
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

/**
 * Whether the literals a sender's struct can be (`sent`) share none with those of any receive
 * site of the receiver; a site that knows none (undefined) can be any value.
 */
function madeApart(
  sent: ReadonlySet<Expr> | undefined,
  received: readonly (() => ReadonlySet<Expr> | undefined)[],
): boolean {
  if (!sent) return false;
  for (const site of received) {
    const lits = site();
    if (!lits || [...sent].some((lit) => lits.has(lit))) return false;
  }
  return true;
}
