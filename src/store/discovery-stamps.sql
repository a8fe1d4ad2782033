-- Discovery stamps (src/index/discovery-stamp.ts): per indexed root, what discovery found and the
-- digest of the stat of every path that could change it, so a re-index that finds nothing changed
-- need not ask git. src/store/discovery-stamps.ts runs this file before the first write; readers
-- treat a missing table as no stamp. A stamp is only ever a shortcut: dropping one costs the next
-- run its git calls, nothing else.
CREATE TABLE IF NOT EXISTS discovery_stamps (
  root   TEXT PRIMARY KEY,
  key    TEXT NOT NULL,
  digest TEXT NOT NULL,
  paths  BLOB NOT NULL,
  tree   BLOB NOT NULL
) WITHOUT ROWID;
