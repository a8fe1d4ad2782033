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
    super(`no symbol matches ${JSON.stringify(query)}${hint}`, { code: 'E_NO_SYMBOL' });
  }
}

export class AmbiguousSymbolError extends K8sReadError {
  readonly candidates: readonly string[];
  constructor(query: string, candidates: readonly string[]) {
    super(
      `${JSON.stringify(query)} matches ${candidates.length} symbols; name one of them:\n  ${candidates.slice(0, 20).join('\n  ')}${candidates.length > 20 ? `\n  ... and ${candidates.length - 20} more` : ''}`,
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
