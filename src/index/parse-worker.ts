// Worker-thread entry for the parse pool (piscina): one batch of files per task. Parse trees live
// only inside the native call (src/native/capture-walk.c frees each before returning), so a batch
// holds nothing but its encoded facts.
import type { ParseResult, ParseTask } from './parse-file.js';
import { parseFile } from './parse-file.js';

export default function parseBatch({
  tasks,
  maxBytes,
  stop,
}: {
  tasks: ParseTask[];
  maxBytes: number;
  /** Set to 1 by the main thread to stop between two files (an interrupted run). */
  stop?: Int32Array;
}): ParseResult[] {
  const results: ParseResult[] = [];
  for (const task of tasks) {
    if (stop && Atomics.load(stop, 0)) break;
    results.push(parseFile(task, maxBytes));
  }
  return results;
}
