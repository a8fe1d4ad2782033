-- k8s-read index schema. SCHEMA_VERSION in src/store/index-store.ts must change with this file;
-- a database of another version is rebuilt, never misread.
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;

CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Parsed facts per file content. Shared by every tree (checkout, version) in this database, so a
-- blob seen once is never parsed again.
CREATE TABLE IF NOT EXISTS blobs (
  blob          TEXT PRIMARY KEY,
  facts_version INTEGER NOT NULL,
  status        TEXT NOT NULL,
  message       TEXT,
  bytes         INTEGER NOT NULL,
  lines         INTEGER,
  facts         BLOB
);

-- One row per indexed tree (a checkout root).
CREATE TABLE IF NOT EXISTS trees (
  id         INTEGER PRIMARY KEY,
  root       TEXT NOT NULL UNIQUE,
  commit_sha TEXT,
  dirty      INTEGER NOT NULL DEFAULT 0,
  version    TEXT,
  module     TEXT,
  remote     TEXT,
  indexed_at TEXT NOT NULL,
  summary    TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS files (
  tree    INTEGER NOT NULL,
  path    TEXT NOT NULL,
  blob    TEXT NOT NULL,
  package TEXT,
  status  TEXT NOT NULL,
  PRIMARY KEY (tree, path)
) WITHOUT ROWID;

-- Declarations, named as go/ssa names them.
CREATE TABLE IF NOT EXISTS symbols (
  tree     INTEGER NOT NULL,
  id       INTEGER NOT NULL,
  symbol   TEXT NOT NULL,
  name     TEXT NOT NULL,
  kind     TEXT NOT NULL,
  package  TEXT NOT NULL,
  file     TEXT NOT NULL,
  line     INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  col      INTEGER NOT NULL,
  detail   TEXT,
  doc      TEXT,
  PRIMARY KEY (tree, id)
) WITHOUT ROWID;

-- Resolved call edges. callee is NULL for an unresolved call (expr keeps its text). rank 0 is the
-- best target; interface calls list other implementations with rank 1, 2, ...
CREATE TABLE IF NOT EXISTS edges (
  tree   INTEGER NOT NULL,
  caller INTEGER NOT NULL,
  callee INTEGER,
  kind   TEXT NOT NULL,
  via    TEXT,
  rank   INTEGER NOT NULL DEFAULT 0,
  file   TEXT NOT NULL,
  line   INTEGER NOT NULL,
  col    INTEGER NOT NULL,
  expr   TEXT
);

-- Derived views the query commands read: struct layouts, interface implementations, stores into
-- fields and variables. JSON payloads keyed by symbol.
CREATE TABLE IF NOT EXISTS details (
  tree    INTEGER NOT NULL,
  symbol  TEXT NOT NULL,
  kind    TEXT NOT NULL,
  payload TEXT NOT NULL,
  PRIMARY KEY (tree, symbol, kind)
) WITHOUT ROWID;
