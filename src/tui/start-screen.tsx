/**
 * Puts the screen on a terminal and keeps it there until the reader quits: the alternate screen
 * (the shell's scrollback comes back untouched on quit), Ink with its own Ctrl-C handling off (q
 * and Ctrl-C both quit through the key bindings), and the hand-over to the reader's editor — the
 * screen steps aside, the editor gets the terminal, and the screen comes back where it was.
 */
import { render } from 'ink';
import { App } from './App.js';
import type { NavState } from './navigation.js';
import type { AppProps } from './types.js';
import type { AnswerCache } from './use-answer.js';

export interface ScreenStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface ScreenOptions {
  /**
   * Runs the reader's editor on the terminal and returns a one-line status when it exits; the
   * screen is off the terminal meanwhile. @default opening an editor is not offered
   */
  editor?: (file: string, line: number) => string;
  /** Told once the first frame is on the terminal (the benchmark's clock stops there). @default ignored */
  onFirstFrame?: () => void;
}

const ENTER_ALTERNATE = '\x1b[?1049h\x1b[H';
const LEAVE_ALTERNATE = '\x1b[?1049l';

export async function startScreen(
  props: AppProps,
  streams: ScreenStreams,
  options: ScreenOptions = {},
): Promise<void> {
  let resume: NavState | undefined;
  let latest: NavState | undefined;
  const cache: AnswerCache = props.cache ?? new Map();
  let editorRequest: { file: string; line: number } | null = null;
  let firstFrame = options.onFirstFrame;
  streams.stdout.write(ENTER_ALTERNATE);
  try {
    for (;;) {
      const instance = render(
        <App
          {...props}
          cache={cache}
          {...(resume ? { initialState: resume } : {})}
          onNavigate={(state) => {
            latest = state;
          }}
          providers={{
            ...props.providers,
            ...(options.editor
              ? {
                  openEditor: (file: string, line: number) => {
                    editorRequest = { file, line };
                    instance.unmount();
                    return Promise.resolve('');
                  },
                }
              : {}),
          }}
        />,
        {
          stdin: streams.stdin,
          stdout: streams.stdout,
          stderr: streams.stderr,
          exitOnCtrlC: false,
          patchConsole: false,
          // Ink 6.8's incremental mode moves the cursor one row short when a frame ends in a
          // newline (every frame shorter than the screen does), drawing each frame a row low.
          // The standard mode rewrites the frame inside a synchronized update instead.
          incrementalRendering: false,
          onRender: () => {
            firstFrame?.();
            firstFrame = undefined;
          },
        },
      );
      await instance.waitUntilExit();
      const request = editorRequest as { file: string; line: number } | null;
      if (request === null || !options.editor || latest === undefined) return;
      editorRequest = null;
      streams.stdout.write(LEAVE_ALTERNATE);
      const status = options.editor(request.file, request.line);
      streams.stdout.write(ENTER_ALTERNATE);
      resume = { ...latest, status };
    }
  } finally {
    streams.stdout.write(LEAVE_ALTERNATE);
  }
}
