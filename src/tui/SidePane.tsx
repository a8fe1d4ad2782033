/**
 * The side pane, on the right or at the bottom: tabs for its views (the active one inverted) over
 * a window of the view's rows. Lists keep their selected row in view; text scrolls by its offset.
 */
import { Box, Text } from 'ink';
import type { Placement, SideView } from './navigation.js';
import { sideViews } from './navigation.js';
import { Rows } from './Rows.js';
import { sideTitles, type SideContent } from './use-side-content.js';
import { useWindowTop } from './use-window-top.js';

export interface SidePaneProps {
  view: SideView;
  /** `Guide` in a tour, `Node` when exploring a trace. */
  aboutTitle: string;
  content: SideContent;
  offset: number;
  focused: boolean;
  placement: Placement;
  width: number;
  height: number;
}

export function SidePane({
  view,
  aboutTitle,
  content,
  offset,
  focused,
  placement,
  width,
  height,
}: SidePaneProps) {
  const inner = placement === 'right' ? width - 1 : width;
  const size = Math.max(height - 2 + (placement === 'right' ? 1 : 0), 1);
  const listTop = useWindowTop(offset, size, content.rows.length, content.key);
  const top = content.choose ? listTop : Math.min(offset, Math.max(0, content.rows.length - size));
  const tabs = sideViews.map((v) => ({ v, label: v === 'about' ? aboutTitle : sideTitles[v] }));
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="single"
      borderDimColor
      borderTop={placement === 'bottom'}
      borderLeft={placement === 'right'}
      borderRight={false}
      borderBottom={false}
    >
      <Box width={inner} height={1} overflow="hidden">
        <Text wrap="truncate-end">
          {tabs.map(({ v, label }) => (
            <Text key={v} bold={v === view} inverse={v === view && focused} dimColor={v !== view}>
              {` ${label} `}
            </Text>
          ))}
        </Text>
      </Box>
      <Rows rows={content.rows.slice(top)} width={inner} height={size} />
    </Box>
  );
}
