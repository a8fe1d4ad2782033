/**
 * Puts the screen on a terminal and keeps it there until the reader quits: the alternate screen
 * (the shell's scrollback comes back untouched on quit), Ink with its own Ctrl-C handling off (q
 * and Ctrl-C both quit through the key bindings), the start screen of controllers (enter opens
 * one's trace, `s` comes back), and the hand-over to the reader's editor — the screen steps aside,
 * the editor gets the terminal, and the screen comes back where it was.
 */
import { render } from 'ink';
import { App } from './App.js';
import { ControllerMenu } from './ControllerMenu.js';
import type { NavState } from './navigation.js';
import type { AppProps, StartProps } from './types.js';
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
  first: AppProps | StartProps,
  streams: ScreenStreams,
  options: ScreenOptions = {},
): Promise<void> {
  const start = first.mode === 'start' ? first : null;
  let props: AppProps | null = first.mode === 'start' ? null : first;
  let menuIndex = start?.initialIndex ?? 0;
  let resume: NavState | undefined;
  let latest: NavState | undefined;
  let cache: AnswerCache = props?.cache ?? new Map();
  let firstFrame = options.onFirstFrame;
  const renderOptions = {
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
  };
  streams.stdout.write(ENTER_ALTERNATE);
  try {
    for (;;) {
      if (props === null) {
        // The start screen until the reader opens a controller (or quits).
        const menu = start!;
        const opened = await new Promise<AppProps | null>((resolve) => {
          let status: string | null = null;
          let settled = false;
          const draw = () => (
            <ControllerMenu
              {...menu}
              initialIndex={menuIndex}
              status={status}
              onOpen={(index) => {
                menuIndex = index;
                status = `tracing ${menu.table.controllers[index]?.name ?? ''}…`;
                instance.rerender(draw());
                menu.open(index).then(
                  (next) => {
                    settled = true;
                    instance.unmount();
                    resolve(next);
                  },
                  (error: unknown) => {
                    status = error instanceof Error ? error.message : String(error);
                    instance.rerender(draw());
                  },
                );
              }}
            />
          );
          const instance = render(draw(), renderOptions);
          void instance.waitUntilExit().then(() => {
            if (!settled) resolve(null);
          });
        });
        if (!opened) return;
        props = opened;
        cache = opened.cache ?? new Map();
        resume = undefined;
        continue;
      }
      const current: AppProps = props;
      let editorRequest: { file: string; line: number } | null = null;
      let home = false;
      const instance = render(
        <App
          {...current}
          cache={cache}
          {...(resume ? { initialState: resume } : {})}
          onNavigate={(state) => {
            latest = state;
          }}
          {...(start
            ? {
                onHome: () => {
                  home = true;
                  instance.unmount();
                },
              }
            : {})}
          providers={{
            ...current.providers,
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
        renderOptions,
      );
      await instance.waitUntilExit();
      if (home) {
        props = null;
        continue;
      }
      const request = editorRequest as { file: string; line: number } | null;
      if (request === null || !options.editor || latest === undefined) return;
      streams.stdout.write(LEAVE_ALTERNATE);
      const status = options.editor(request.file, request.line);
      streams.stdout.write(ENTER_ALTERNATE);
      resume = { ...latest, status };
    }
  } finally {
    streams.stdout.write(LEAVE_ALTERNATE);
  }
}
