/**
 * What the link's `via` on an unresolved call says to the views: the reason given in words, and
 * whether nothing runs there (the call folds in a component's trace).
 */
import { describe, expect, it } from 'vitest';
import {
  externalVia,
  NEVER_FILLED,
  NEVER_STORED,
  NIL_ONLY,
  runsNothing,
  unresolvedReason,
} from '../../src/shared/edge-via.js';

describe('the via of an unresolved call', () => {
  it('says why in words', () => {
    expect(unresolvedReason(externalVia('github.com/spf13/cobra'))).toBe(
      'a value from github.com/spf13/cobra, not indexed',
    );
    expect(unresolvedReason(NEVER_STORED)).toBe('a field no indexed code sets');
    expect(unresolvedReason(NIL_ONLY)).toBe('nil wherever indexed code sets it');
    expect(unresolvedReason(NEVER_FILLED)).toBe('from a list no indexed code fills');
    expect(unresolvedReason(null)).toBeUndefined();
  });

  it('runs nothing where no indexed code gives the value one', () => {
    expect([NEVER_STORED, NIL_ONLY, NEVER_FILLED].map(runsNothing)).toEqual([true, true, true]);
    expect([externalVia('net/http'), null, undefined].map(runsNothing)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
