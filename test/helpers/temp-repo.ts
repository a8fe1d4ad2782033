/**
 * Builds git repositories in temporary directories for tests: deterministic authors and dates,
 * no global git config needed (identity passed per command), never through a shell.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempRepo {
  root: string;
  git(...args: string[]): string;
  write(file: string, content: string): void;
  /** Commits everything with a fixed author and an increasing date; returns the sha. */
  commit(message: string, options?: { author?: string; email?: string }): string;
}

let clock = Date.UTC(2022, 0, 1) / 1000;

export function createTempRepo(prefix = 'k8s-read-repo-'): TempRepo {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const env = (author = 'Ada Reader', email = 'ada@example.com') => {
    clock += 3600;
    const date = `${clock} +0000`;
    return {
      ...process.env,
      GIT_AUTHOR_NAME: author,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: author,
      GIT_COMMITTER_EMAIL: email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_NOSYSTEM: '1',
    };
  };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
      cwd: root,
      env: env(),
      encoding: 'utf8',
    });
  git('init', '-q');
  return {
    root,
    git,
    write(file, content) {
      const full = path.join(root, file);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, content);
    },
    commit(message, options = {}) {
      execFileSync('git', ['add', '-A'], { cwd: root, env: env() });
      execFileSync(
        'git',
        ['-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', message],
        {
          cwd: root,
          env: env(options.author, options.email),
        },
      );
      return git('rev-parse', 'HEAD').trim();
    },
  };
}
