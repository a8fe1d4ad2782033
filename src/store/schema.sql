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

-- Declarations, named as go/ssa names them. Unique by (tree, id): symbols_by_id in indexes.sql.
-- symbols and details are rowid tables with their keys built after the bulk load: rows of a few
-- hundred bytes (docs, JSON payloads) made WITHOUT ROWID tables 9 MB larger and slower to fill.
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
  doc      TEXT
);

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
  expr   TEXT,
  -- Packages the edge needs in the program besides the caller's own import closure, as package
  -- ids: `3,17|25` is (3 and 17) or 25. NULL: nothing beyond the caller.
  needs  TEXT
);

-- Function values passed at a call site into the parameter slots of the function called (symbol
-- kind `param`): the tracer binds them per call path. `value` is a function, or a slot of the
-- caller (forwarded).
CREATE TABLE IF NOT EXISTS bindings (
  tree   INTEGER NOT NULL,
  caller INTEGER NOT NULL,
  line   INTEGER NOT NULL,
  col    INTEGER NOT NULL,
  callee INTEGER NOT NULL,
  slot   INTEGER NOT NULL,
  value  INTEGER NOT NULL,
  needs  TEXT
);

-- Packages of the tree and what they import: a trace is one program, the import closure of its
-- main package.
CREATE TABLE IF NOT EXISTS packages (
  tree    INTEGER NOT NULL,
  id      INTEGER NOT NULL,
  path    TEXT NOT NULL,
  name    TEXT NOT NULL,
  dir     TEXT NOT NULL,
  imports TEXT NOT NULL,
  PRIMARY KEY (tree, id)
) WITHOUT ROWID;

-- Named types and the packages that construct them (composite literals, new): interface calls
-- rank the implementations a program constructs first.
CREATE TABLE IF NOT EXISTS made (
  tree    INTEGER NOT NULL,
  type    TEXT NOT NULL,
  package INTEGER NOT NULL
);

-- Derived views the query commands read: struct layouts, interface implementations, stores into
-- fields and variables. JSON payloads keyed by symbol (unique by tree, symbol, kind).
CREATE TABLE IF NOT EXISTS details (
  tree    INTEGER NOT NULL,
  symbol  TEXT NOT NULL,
  kind    TEXT NOT NULL,
  payload TEXT NOT NULL
);
