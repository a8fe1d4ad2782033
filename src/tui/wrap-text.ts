/**
 * Word-wraps guide prose (Markdown read as text) into rows of a given width, so a pane can scroll
 * it row by row. List items keep their hanging indent; fenced code keeps its lines (cut, not
 * wrapped, as code reads badly wrapped). Widths count code points: the guides are written in
 * English and use no double-width characters.
 */

export function wrapText(text: string, width: number): string[] {
  const room = Math.max(width, 8);
  const rows: string[] = [];
  let inFence = false;
  for (const line of joinParagraphs(text)) {
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      rows.push(cut(`  ${line.replace(/\t/g, '    ')}`, room));
      continue;
    }
    if (line.trim() === '') {
      rows.push('');
      continue;
    }
    const indent = /^(\s*(?:[-*+]|\d+\.)?\s*)/.exec(line)![1]!;
    const hanging = ' '.repeat([...indent].length);
    let row = indent;
    let fresh = true;
    for (const word of line.slice(indent.length).split(/\s+/).filter(Boolean)) {
      const candidate = fresh ? row + word : `${row} ${word}`;
      if (!fresh && [...candidate].length > room) {
        rows.push(row);
        row = hanging + word;
      } else {
        row = candidate;
      }
      fresh = false;
    }
    rows.push(cut(row, room));
  }
  return rows;
}

const LIST_ITEM = /^\s*(?:[-*+]|\d+\.)\s/;

/** Markdown's soft line breaks joined: a paragraph (or list item) becomes one logical line. */
function joinParagraphs(text: string): string[] {
  const out: string[] = [];
  let inFence = false;
  let open = false;
  for (const line of text.replace(/\s+$/, '').split('\n')) {
    const fence = /^\s*```/.test(line);
    if (fence) inFence = !inFence;
    if (fence || inFence || line.trim() === '') {
      out.push(line);
      open = false;
    } else if (open && !LIST_ITEM.test(line)) {
      out[out.length - 1] += ` ${line.trim()}`;
    } else {
      out.push(line);
      open = true;
    }
  }
  return out;
}

function cut(row: string, width: number): string {
  const chars = [...row];
  return chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : row;
}
