// Worker-thread entry for the parse pool (piscina): one batch of files per task. Parse trees live
// only inside the native call (src/native/capture-walk.c frees each before returning), so a batch
// holds nothing but its encoded facts.
import type { ParseResult, ParseTask } from './parse-file.js';
import { parseFile } from './parse-file.js';

export default function parseBatch({
  tasks,
  maxBytes,
}: {
  tasks: ParseTask[];
  maxBytes: number;
}): ParseResult[] {
  return tasks.map((task) => parseFile(task, maxBytes));
}
