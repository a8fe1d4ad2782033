import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertDrawable, EmptyTraceError, OutputFileError } from '../../src/export/errors.js';
import { writeOutputFile } from '../../src/export/output-file.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { emptyTrace, schedulerTrace } from './sample-traces.js';

describe('writeOutputFile', () => {
  it('replaces an existing file and leaves no temporary file behind', () => {
    const dir = useTempDir();
    const file = path.join(dir, 'sched.svg');
    writeFileSync(file, 'old');
    writeOutputFile(file, '<svg/>\n');
    expect(readFileSync(file, 'utf8')).toBe('<svg/>\n');
    expect(readdirSync(dir)).toEqual(['sched.svg']);
  });

  it('throws a usage error naming the path when the directory is missing', () => {
    const file = path.join(useTempDir(), 'no', 'such', 'dir', 'x.md');
    expect(() => writeOutputFile(file, 'x')).toThrow(OutputFileError);
    expect(() => writeOutputFile(file, 'x')).toThrow(`cannot write ${file}: no directory`);
  });
});

describe('assertDrawable', () => {
  it('accepts a trace with calls', () => {
    expect(() => assertDrawable(schedulerTrace())).not.toThrow();
  });

  it('says which trace is empty and what to check', () => {
    expect(() => assertDrawable(emptyTrace())).toThrow(EmptyTraceError);
    expect(() => assertDrawable(emptyTrace())).toThrow(
      'the trace of kube-scheduler (from k8s.io/kubernetes/cmd/kube-scheduler.main) has no calls to draw; check the component or --focus symbol',
    );
  });

  it('mentions unresolved calls when they are all the root has', () => {
    const trace = { ...emptyTrace(), unresolved: schedulerTrace().unresolved };
    expect(() => assertDrawable(trace)).toThrow(
      '(2 of its calls could not be resolved; `k8s-read trace kube-scheduler` lists them)',
    );
  });
});
