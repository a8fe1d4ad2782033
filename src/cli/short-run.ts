/**
 * A command that ends within a second or so gains nothing from V8's optimizing compiler
 * (TurboFan): it compiles on background threads code that is about to finish anyway. A warm
 * `trace kubelet` spent 250-350 ms of CPU there on 2 cores (measured per thread), its main
 * thread the same with it or without; with it off the trace takes ~0.6-0.7x the CPU and wall
 * time on a shared machine, and still 0.78x for `--all -o json` of kube-apiserver (1.2 s).
 * `index` (tens of seconds of hot loops) and the TUI keep it.
 *
 * Node documents that V8 flags set after start-up may misbehave; this one is a policy read
 * where V8 decides to optimize a function, and the traces it runs are byte-for-byte the same.
 */
import v8 from 'node:v8';

export function skipOptimizingCompiler(): void {
  v8.setFlagsFromString('--no-opt');
}
