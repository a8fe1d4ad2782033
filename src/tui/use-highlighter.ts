/**
 * Whether syntax colour is ready: false until cli-highlight has loaded (after the first frame),
 * then true, re-rendering once so the panes colour what they show.
 */
import { useEffect, useState } from 'react';
import { highlighterLoaded, loadHighlighter } from './highlight.js';

export function useHighlighter(color: boolean): boolean {
  const [ready, setReady] = useState(highlighterLoaded);
  useEffect(() => {
    if (!color || ready) return;
    let mounted = true;
    void loadHighlighter().then(() => mounted && setReady(true));
    return () => {
      mounted = false;
    };
  }, [color, ready]);
  return color && ready;
}
