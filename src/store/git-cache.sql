-- The git cache: answers that cost git walks, kept beside the index in the same database (or
-- alone in it when there is no index yet). Every statement is idempotent: src/store/git-cache.ts
-- runs this file on each open. FORMAT in that file changes with the shape of what is stored; rows
-- of another format are dropped, never misread. Index rebuilds leave these tables alone: a
-- commit's pull request does not change when the code is re-indexed.

-- As the index: readers never wait for a writer (an `index` run holds its write for long). In WAL
-- mode, synchronous=NORMAL never corrupts the file; a power cut may lose the last answers cached.
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;

-- One transaction for the tables: one sync on a new cache instead of one per statement.
BEGIN;

CREATE TABLE IF NOT EXISTS git_cache_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Commit -> the pull request that brought it into the main line (or why none can be named).
-- `github` is the owner/repo that PR links point at ('' when unknown): the same commit read with
-- another --github gets other URLs.
CREATE TABLE IF NOT EXISTS git_pull_request (
  commit_sha TEXT NOT NULL,
  github     TEXT NOT NULL,
  answer     TEXT NOT NULL,  -- JSON PullRequestAnswer
  PRIMARY KEY (commit_sha, github)
) WITHOUT ROWID;

-- A file's blame, by the blob id of the file at HEAD and the blame options (which include the
-- line range; '' range is the whole file). `head` is the commit it was computed at: still valid
-- for any later HEAD that descends from it while the blob is unchanged.
CREATE TABLE IF NOT EXISTS git_blame (
  path    TEXT NOT NULL,
  blob    TEXT NOT NULL,
  options TEXT NOT NULL,
  head    TEXT NOT NULL,
  lines   TEXT NOT NULL,   -- JSON BlameLine[]
  PRIMARY KEY (path, blob, options)
) WITHOUT ROWID;

-- HEAD's main line, so a new process need not read the whole commit graph again: for every commit
-- in the history of the recorded HEAD (git_cache_meta 'mainline_head'), the oldest first-parent
-- commit that contains it. `depth` numbers the first-parent commits from the oldest (0), so "the
-- main-line commits just above this one" is a range scan. A HEAD that moved on along the same line
-- extends these rows; any other HEAD replaces them.
CREATE TABLE IF NOT EXISTS git_mainline (
  commit_sha TEXT PRIMARY KEY,
  introducer TEXT NOT NULL,
  depth      INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS git_mainline_by_depth ON git_mainline (depth) WHERE depth IS NOT NULL;

COMMIT;
