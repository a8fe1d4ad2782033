-- Trace answers: the whole answer (JSON `Trace`, deflated) of a trace, kept beside the index in the
-- same database. src/store/trace-answers.ts runs this file before the first write; readers treat a
-- missing table as no answer. `key` covers everything an answer is computed from (the index's
-- generation, the options, the trace rules, the build of k8s-read), so an answer is never read for
-- anything else; `generation` is the index's part of it, so a re-index drops the tree's older
-- answers when the first new one is written.
CREATE TABLE IF NOT EXISTS trace_answers (
  key        TEXT PRIMARY KEY,
  tree       INTEGER NOT NULL,
  generation TEXT NOT NULL,
  written    INTEGER NOT NULL,
  answer     BLOB NOT NULL
) WITHOUT ROWID;
