-- Created after a bulk load (faster than maintaining them row by row); replaceTree drops them
-- before reloading a database that holds a single tree.
CREATE UNIQUE INDEX IF NOT EXISTS symbols_by_id ON symbols (tree, id);
CREATE UNIQUE INDEX IF NOT EXISTS details_by_symbol ON details (tree, symbol, kind);
CREATE INDEX IF NOT EXISTS symbols_by_symbol ON symbols (tree, symbol);
CREATE INDEX IF NOT EXISTS symbols_by_name ON symbols (tree, name);
CREATE INDEX IF NOT EXISTS symbols_by_file ON symbols (tree, file, line);
CREATE INDEX IF NOT EXISTS edges_by_caller ON edges (tree, caller);
CREATE INDEX IF NOT EXISTS edges_by_callee ON edges (tree, callee);
CREATE INDEX IF NOT EXISTS bindings_by_caller ON bindings (tree, caller);
CREATE INDEX IF NOT EXISTS bindings_by_value ON bindings (tree, value);
CREATE INDEX IF NOT EXISTS bindings_by_callee ON bindings (tree, callee);
CREATE INDEX IF NOT EXISTS made_by_type ON made (tree, type);
