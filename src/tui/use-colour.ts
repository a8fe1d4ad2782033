/**
 * Whether the screen may use colour (off with NO_COLOR, or when the CLI says the terminal has
 * none). Without it the panes keep bold, dim and inverse, which carry the same marks.
 */
import { createContext, useContext } from 'react';

export const ColourContext = createContext(true);

/** The colour name when colour is on, else nothing. */
export function useColour(): (name: string) => { color?: string } {
  const on = useContext(ColourContext);
  return (name) => (on ? { color: name } : {});
}
