/**
 * The one error family. Library code throws these; only src/cli/main.ts prints them, as
 * `error: <message>`, and sets the exit code. Anything that is not a K8sReadError is a bug and
 * is printed with its stack.
 */
export class K8sReadError extends Error {
  readonly code: string;
  readonly exitCode: number;

  constructor(
    message: string,
    options: { code?: string; exitCode?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? 'E_K8S_READ';
    this.exitCode = options.exitCode ?? 1;
  }
}

/** A user's input (a flag, an argument, a path) cannot be used. Exit code 2, as for usage errors. */
export class UsageError extends K8sReadError {
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { code: options.code ?? 'E_USAGE', exitCode: 2, cause: options.cause });
  }
}

export class RepoNotFoundError extends K8sReadError {
  constructor(path: string, why: string) {
    super(`${path}: ${why}. Pass --repo PATH to a Go checkout, or set KUBERNETES_SRC.`, {
      code: 'E_REPO',
      exitCode: 2,
    });
  }
}

export class IndexMissingError extends K8sReadError {
  constructor(root: string) {
    super(`no index for ${root}; run \`k8s-read index --repo ${root}\` first`, {
      code: 'E_NO_INDEX',
    });
  }
}

export class IndexBusyError extends K8sReadError {
  constructor(dbPath: string) {
    super(
      `another \`k8s-read index\` is writing ${dbPath}; wait for it to finish (or remove ${dbPath}.lock if no index is running)`,
      { code: 'E_INDEX_BUSY' },
    );
  }
}

export class SymbolNotFoundError extends K8sReadError {
  constructor(query: string, suggestions: readonly string[] = []) {
    const hint = suggestions.length
      ? `; did you mean:\n  ${suggestions.join('\n  ')}`
      : '; try `k8s-read search <text>`';
    super(`no symbol matches ${quoteInput(query)}${hint}`, { code: 'E_NO_SYMBOL' });
  }
}

export class AmbiguousSymbolError extends K8sReadError {
  readonly candidates: readonly string[];
  constructor(query: string, candidates: readonly string[]) {
    super(
      `${quoteInput(query)} matches ${candidates.length} symbols; name one of them:\n  ${candidates.slice(0, 20).join('\n  ')}${candidates.length > 20 ? `\n  ... and ${candidates.length - 20} more` : ''}`,
      { code: 'E_AMBIGUOUS' },
    );
    this.candidates = candidates;
  }
}

export class GitError extends K8sReadError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'E_GIT', cause: options.cause });
  }
}

/**
 * A database file k8s-read must not open, create or change: a directory, a file that is not SQLite,
 * a SQLite database some other program made, or a path where no file can be made. The file is left
 * exactly as it was.
 */
export class DatabasePathError extends K8sReadError {
  readonly path: string;
  constructor(path: string, why: string, fix: string) {
    super(`${path}: ${why}; ${fix}`, { code: 'E_DB_PATH', exitCode: 2 });
    this.path = path;
  }
}

/** The index database is damaged: SQLite reports corruption, or tables or rows are missing. */
export class IndexDamagedError extends K8sReadError {
  readonly path: string;
  constructor(path: string, what: string) {
    super(
      `the index ${path} is damaged (${what}); run \`k8s-read index --rebuild --db ${path}\` to build it again`,
      { code: 'E_INDEX_DAMAGED' },
    );
    this.path = path;
  }
}

/** SQLite could not get its lock: another process holds the database. */
export class DatabaseLockedError extends K8sReadError {
  constructor(path: string, waitedMs: number) {
    super(
      `${path} is locked by another process (waited ${(waitedMs / 1000).toFixed(0)} s); let it finish and run the command again`,
      { code: 'E_DB_LOCKED' },
    );
  }
}

export class DatabaseReadOnlyError extends K8sReadError {
  constructor(path: string, why: string) {
    super(
      `${path} is read-only (${why}); make it writable, or pass --db with a path in a writable directory`,
      { code: 'E_DB_READONLY' },
    );
  }
}

export class DiskFullError extends K8sReadError {
  constructor(path: string) {
    super(
      `the disk holding ${path} is full; nothing was half-written (the previous index is unchanged): free some space, or pass --db with a path on another disk`,
      { code: 'E_DISK_FULL' },
    );
  }
}

/** The operating system failed a read or write of the database. */
export class DatabaseIoError extends K8sReadError {
  constructor(path: string, detail: string) {
    super(
      `cannot read or write ${path} (${detail}); check the disk and its permissions, or pass --db with another path`,
      { code: 'E_DB_IO' },
    );
  }
}

/** The `sqlite3` package was built against a SQLite older than the JSON functions the store uses. */
export class SqliteTooOldError extends K8sReadError {
  constructor(version: string, needed: string) {
    super(
      `the sqlite3 package runs SQLite ${version}; k8s-read needs ${needed} or later (jsonb_each, ->>). Reinstall it with its bundled SQLite: npm rebuild sqlite3 (without --sqlite or a build from a system library)`,
      { code: 'E_SQLITE_OLD' },
    );
  }
}

/** A run was stopped by Ctrl-C or SIGTERM. Exit code 130, as a shell reports an interrupted command. */
export class InterruptedError extends K8sReadError {
  constructor(message: string) {
    super(message, { code: 'E_INTERRUPTED', exitCode: 130 });
  }
}

/** User text in a message: quoted, and cut when it is longer than a line (a pasted file, say). */
export function quoteInput(text: string, max = 120): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max))}... (${text.length} characters)`;
}
