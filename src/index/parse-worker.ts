// Worker-thread entry for the parse pool (piscina): one batch of files per task.
import type { ParseResult, ParseTask } from './parse-file.js';
import { parseFile } from './parse-file.js';

export default function parseBatch({ tasks, maxBytes }: { tasks: ParseTask[]; maxBytes: number }): ParseResult[] {
  return tasks.map((task) => parseFile(task, maxBytes));
}
