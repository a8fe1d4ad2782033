/**
 * The columns a text takes on a terminal, counted as code points (an emoji or a CJK character
 * counts one, as everywhere in the renderers). Asked many times per row while a line is fitted to
 * the width: a text with no surrogate pair is its length, without spreading it into an array.
 */
export function columns(text: string): number {
  return SURROGATE.test(text) ? [...text].length : text.length;
}

const SURROGATE = /[\uD800-\uDFFF]/;
