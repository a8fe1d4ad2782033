import type { Trace } from '../src/trace/types.js';

export function generatedTrace(size?: number, extraCalls?: number, packages?: number): Trace;
