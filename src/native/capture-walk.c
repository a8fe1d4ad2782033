/*
 * Parses a Go file with tree-sitter and hands JavaScript the captured constructs as flat integer
 * arrays, in one call per file.
 *
 * Why native: node-tree-sitter marshals every node it hands out (a capture, a child, a cursor
 * step) across N-API, several microseconds each; reading the captured subtrees that way cost 1.6x
 * the parse itself. Here the same query (the files in queries/go, passed in by src/index/native.ts) runs
 * on the same grammar and the same walk rules as before, and JavaScript builds its light nodes from
 * the arrays without a single native call. What is extracted stays in TypeScript
 * (src/index/extract.ts); this file only decides which nodes JavaScript sees:
 *
 * - every capture, in the order ts_query_cursor_next_capture gives (node-tree-sitter's order),
 *   found by the matcher below in one pass when it knows every pattern of the query (the cursor
 *   itself cost more than the parse);
 * - the subtree of each capture not already inside a walked subtree, where a walk stops at a
 *   `block` (below its root), does not enter leaf types (string literals), keeps named nodes
 *   (comments excepted) and, of the anonymous tokens, those in a field or listed as kept;
 * - for declaration captures, the comments directly above the node and above its parent (doc
 *   comments), and the parent's type and named-child count.
 *
 * Offsets are UTF-16 code units, as JavaScript strings index them.
 *
 * It also maps a file into memory for reading (`mapFile`): a trace reads its tree's record
 * (src/store/trace-pack.ts) that way, paying for the pages it touches instead of a copy of 30 MB;
 * and stats many paths in one call (`statPaths`) for the index's discovery stamp.
 */
#if !defined(_WIN32)
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif
#include <node_api.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_go(void);

/* Growable int32 buffer. */
typedef struct {
  int32_t *data;
  size_t len, cap;
} IntBuf;

static int buf_reserve(IntBuf *b, size_t extra) {
  if (b->len + extra <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 1024;
  while (cap < b->len + extra) cap *= 2;
  int32_t *data = realloc(b->data, cap * sizeof(int32_t));
  if (!data) return 0;
  b->data = data;
  b->cap = cap;
  return 1;
}

static inline void buf_push(IntBuf *b, int32_t v) {
  if (b->len == b->cap && !buf_reserve(b, 1)) return;
  b->data[b->len++] = v;
}

/*
 * A pattern of queries/go the matcher knows, in the one shape they all have: a node of `type`,
 * optionally under a `parent`, optionally with a child in `field` of type `child` (any named node
 * when NULL) that optionally has a direct child of type `grandchild`.
 */
typedef struct {
  int32_t type, parent, field, child, grandchild;
  uint32_t capture, pattern;
} Rule;

typedef struct {
  TSNode node;
  uint32_t start, capture, pattern, order;
  int32_t doc; /* the matcher: its doc block in State.docbuf, or -1 (see doc_block) */
} Match;

#define RULES_PER_TYPE 4

/* Walked nodes by (start, end, type): a capture inside a walked subtree is not walked again. */
typedef struct {
  uint64_t *keys; /* start << 32 | end, 0 = empty (start and end are never both 0 with type 0) */
  int32_t *types;
  int32_t *values;
  size_t cap, len; /* cap: the slots in use for this file, a power of two */
  size_t allocated; /* the slots the arrays hold (the largest file's so far) */
} NodeSet;

typedef struct {
  TSParser *parser;
  TSQuery *query;
  TSQueryCursor *query_cursor;
  uint32_t symbol_count;
  uint16_t *canon;   /* symbol -> first symbol of the same name and named-ness */
  uint8_t *flags;    /* per canonical symbol: FLAG_* */
  uint32_t *doc_capture; /* per capture id: 1 when its doc comments are wanted */
  uint32_t *skip_capture; /* per capture id: 1 when not walked (comments, the package name) */
  uint32_t capture_count;
  IntBuf nodes, captures, docs, errors;
  NodeSet seen;
  uint32_t *utf16; /* byte offset -> UTF-16 offset, for non-ASCII sources */
  size_t utf16_cap;
  const uint32_t *offsets; /* utf16 while parsing a non-ASCII source, else NULL */
  IntBuf stack; /* walk: ancestors' node indexes and types, in pairs */
  /* walk: only nodes of a type the matcher captures go into `seen` (no other is looked up there;
   * the query cursor's captures may be of any type). */
  int captured_only;
  /* The matcher (see below): rules by canonical type, and the captures of one file. */
  int fast;           /* every pattern of the query is a known one: match without the cursor */
  Rule *rules;
  uint32_t rule_count;
  int16_t *rules_by_type; /* per canonical symbol: up to RULES_PER_TYPE rule indexes, -1 ended */
  Match *matches;
  size_t match_len, match_cap;
  IntBuf parents; /* matcher: ancestors' canonical types */
  /* The matcher's doc comments, read as it passes instead of by ts_node_prev_sibling and
   * ts_node_parent afterwards (each walks its parent's children; ts_node_parent walks down from
   * the root). `runs`: 4 ints a comment (start, end, start row, end row) of the comments just
   * before the node at each depth; `levels`: LEVEL_INTS a depth (see match_tree); `ancestors`:
   * the node at each depth; `docbuf`: the doc blocks of this file's matches. */
  IntBuf runs, levels, docbuf;
  TSNode *ancestors;
  size_t ancestors_cap;
  TSTreeCursor field_cursor;
  int field_cursor_ready;
} State;

enum { FLAG_LEAF = 1, FLAG_BODY = 2, FLAG_FIELDED = 4, FLAG_KEPT = 8, FLAG_COMMENT = 16 };

/* Sized for this file, not the largest so far: clearing (and probing) a table sized for a 2 MB
 * file before every small one cost more than the walk it serves. */
static void set_reset(NodeSet *s, size_t expected) {
  size_t want = 64;
  while (want < expected * 2) want *= 2;
  if (want > s->allocated) {
    free(s->keys);
    free(s->types);
    free(s->values);
    s->keys = malloc(want * sizeof(uint64_t));
    s->types = malloc(want * sizeof(int32_t));
    s->values = malloc(want * sizeof(int32_t));
    s->allocated = want;
  }
  memset(s->keys, 0, want * sizeof(uint64_t));
  s->cap = want;
  s->len = 0;
}

static inline size_t set_hash(uint64_t key, int32_t type, size_t cap) {
  uint64_t h = (key ^ ((uint64_t)type << 17)) * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 20) & (cap - 1);
}

static void set_grow(NodeSet *s);

static void set_add(NodeSet *s, uint32_t start, uint32_t end, int32_t type, int32_t value) {
  if ((s->len + 1) * 2 > s->cap) set_grow(s);
  uint64_t key = ((uint64_t)start << 32 | end) + 1;
  size_t i = set_hash(key, type, s->cap);
  while (s->keys[i]) {
    if (s->keys[i] == key && s->types[i] == type) return; /* the first one walked wins */
    i = (i + 1) & (s->cap - 1);
  }
  s->keys[i] = key;
  s->types[i] = type;
  s->values[i] = value;
  s->len++;
}

static void set_grow(NodeSet *s) {
  NodeSet bigger = {0};
  bigger.cap = s->cap * 2;
  bigger.keys = calloc(bigger.cap, sizeof(uint64_t));
  bigger.types = malloc(bigger.cap * sizeof(int32_t));
  bigger.values = malloc(bigger.cap * sizeof(int32_t));
  for (size_t i = 0; i < s->cap; i++) {
    if (!s->keys[i]) continue;
    size_t j = set_hash(s->keys[i], s->types[i], bigger.cap);
    while (bigger.keys[j]) j = (j + 1) & (bigger.cap - 1);
    bigger.keys[j] = s->keys[i];
    bigger.types[j] = s->types[i];
    bigger.values[j] = s->values[i];
  }
  bigger.len = s->len;
  bigger.allocated = bigger.cap;
  free(s->keys);
  free(s->types);
  free(s->values);
  *s = bigger;
}

static int32_t set_find(const NodeSet *s, uint32_t start, uint32_t end, int32_t type) {
  uint64_t key = ((uint64_t)start << 32 | end) + 1;
  size_t i = set_hash(key, type, s->cap);
  while (s->keys[i]) {
    if (s->keys[i] == key && s->types[i] == type) return s->values[i];
    i = (i + 1) & (s->cap - 1);
  }
  return -1;
}

/*
 * The canonical type of a symbol. tree-sitter gives ERROR nodes the symbol 65535, outside the
 * language's table: they get the extra last slot (named "ERROR"), never an index past the arrays.
 */
static inline uint16_t canon_of(const State *st, TSSymbol s) {
  return s < st->symbol_count - 1 ? st->canon[s] : (uint16_t)(st->symbol_count - 1);
}

static inline int32_t offset16(const State *st, uint32_t byte) {
  return (int32_t)(st->offsets ? st->offsets[byte] : byte);
}

/* Walks one captured subtree (rules in the header), appending 5 ints a node: type, field, start,
 * end (-1 for tokens), parent index (-1 for the walk's root). */
static void walk(State *st, TSNode root) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  IntBuf *stack = &st->stack;
  stack->len = 0;
  size_t depth = 0;
  int32_t parent = -1;
  int fielded = 0;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    int32_t type = canon_of(st, ts_node_symbol(node));
    uint8_t flags = st->flags[type];
    int32_t field = fielded ? (int32_t)ts_tree_cursor_current_field_id(&cursor) : 0;
    int descend = 0;
    if (ts_node_is_named(node)) {
      if (!(flags & FLAG_COMMENT)) {
        int32_t index = (int32_t)(st->nodes.len / 5);
        uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
        buf_reserve(&st->nodes, 5);
        buf_push(&st->nodes, type);
        buf_push(&st->nodes, field);
        buf_push(&st->nodes, offset16(st, start));
        buf_push(&st->nodes, offset16(st, end));
        buf_push(&st->nodes, parent);
        if (!st->captured_only || st->rules_by_type[(size_t)type * RULES_PER_TYPE] >= 0)
          set_add(&st->seen, start, end, type, index);
        if (!(flags & FLAG_LEAF) && !(parent >= 0 && (flags & FLAG_BODY)) &&
            ts_tree_cursor_goto_first_child(&cursor)) {
          buf_reserve(stack, 2);
          stack->data[depth * 2] = index;
          stack->data[depth * 2 + 1] = type;
          stack->len = ++depth * 2;
          parent = index;
          fielded = (flags & FLAG_FIELDED) != 0;
          descend = 1;
        }
      }
    } else if (parent >= 0 && (field != 0 || (flags & FLAG_KEPT))) {
      buf_reserve(&st->nodes, 5);
      buf_push(&st->nodes, type);
      buf_push(&st->nodes, field);
      buf_push(&st->nodes, -1);
      buf_push(&st->nodes, -1);
      buf_push(&st->nodes, parent);
    }
    if (descend) continue;
    for (;;) {
      if (depth == 0) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
      if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
      ts_tree_cursor_goto_parent(&cursor);
      stack->len = --depth * 2;
      parent = depth > 0 ? stack->data[(depth - 1) * 2] : -1;
      fielded = depth > 0 && (st->flags[stack->data[(depth - 1) * 2 + 1]] & FLAG_FIELDED) != 0;
    }
  }
}

/* The comments directly above `node`, each on the line before the next, in document order:
 * appends count then start/end pairs. For the query cursor's captures; the matcher reads the same
 * comments as it passes them (doc_block). */
static void push_doc_comments(State *st, TSNode node) {
  int32_t spans[256];
  int count = 0;
  TSNode prev = ts_node_prev_sibling(node);
  int64_t expected = (int64_t)ts_node_start_point(node).row - 1;
  while (!ts_node_is_null(prev) && (st->flags[canon_of(st, ts_node_symbol(prev))] & FLAG_COMMENT) &&
         (int64_t)ts_node_end_point(prev).row == expected && count < 128) {
    spans[count * 2] = offset16(st, ts_node_start_byte(prev));
    spans[count * 2 + 1] = offset16(st, ts_node_end_byte(prev));
    count++;
    expected = (int64_t)ts_node_start_point(prev).row - 1;
    prev = ts_node_prev_sibling(prev);
  }
  buf_reserve(&st->docs, 1 + count * 2);
  buf_push(&st->docs, count);
  for (int i = count - 1; i >= 0; i--) {
    buf_push(&st->docs, spans[i * 2]);
    buf_push(&st->docs, spans[i * 2 + 1]);
  }
}

static void collect_errors(State *st, TSNode node) {
  if (st->errors.len >= 20) return;
  if (ts_node_is_error(node) || ts_node_is_missing(node)) {
    buf_push(&st->errors, (int32_t)ts_node_start_point(node).row + 1);
    return;
  }
  if (!ts_node_has_error(node)) return;
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n; i++) collect_errors(st, ts_node_child(node, i));
}


/* ---- The matcher ----
 *
 * Running the query through ts_query_cursor cost more than the parse itself (a cursor checks
 * every pattern's states at every node). The patterns of queries/go are all of one simple shape
 * (Rule), so when every pattern of the query is one of those below, one depth-first pass checks
 * each node against the rules of its type and the captures are put in the cursor's order: by
 * start byte, then pattern index, then depth-first order. A query with any other pattern runs on
 * the cursor, as does parse(source, true), which the tests compare with this. */

typedef struct {
  const char *text; /* the pattern, comments dropped and whitespace folded */
  const char *type, *parent, *field, *child, *grandchild;
  int child_anonymous;
  const char *capture;
} KnownPattern;

static const KnownPattern KNOWN[] = {
    {"(short_var_declaration) @local.short", "short_var_declaration", NULL, NULL, NULL, NULL, 0,
     "local.short"},
    {"(range_clause) @local.range", "range_clause", NULL, NULL, NULL, NULL, 0, "local.range"},
    {"(type_switch_statement alias: (_)) @local.typeswitch", "type_switch_statement", NULL,
     "alias", NULL, NULL, 0, "local.typeswitch"},
    {"(receive_statement left: (_)) @local.receive", "receive_statement", NULL, "left", NULL, NULL,
     0, "local.receive"},
    {"(assignment_statement) @assignment", "assignment_statement", NULL, NULL, NULL, NULL, 0,
     "assignment"},
    {"(return_statement) @reference.return", "return_statement", NULL, NULL, NULL, NULL, 0,
     "reference.return"},
    {"(go_statement (call_expression) @reference.call.go)", "call_expression", "go_statement", NULL,
     NULL, NULL, 0, "reference.call.go"},
    {"(defer_statement (call_expression) @reference.call.defer)", "call_expression",
     "defer_statement", NULL, NULL, NULL, 0, "reference.call.defer"},
    {"(call_expression) @reference.call", "call_expression", NULL, NULL, NULL, NULL, 0,
     "reference.call"},
    {"(go_statement (type_conversion_expression type: (generic_type)) @reference.call.go)",
     "type_conversion_expression", "go_statement", "type", "generic_type", NULL, 0,
     "reference.call.go"},
    {"(defer_statement (type_conversion_expression type: (generic_type)) @reference.call.defer)",
     "type_conversion_expression", "defer_statement", "type", "generic_type", NULL, 0,
     "reference.call.defer"},
    {"(type_conversion_expression type: (generic_type)) @reference.call",
     "type_conversion_expression", NULL, "type", "generic_type", NULL, 0, "reference.call"},
    {"(send_statement) @reference.send", "send_statement", NULL, NULL, NULL, NULL, 0,
     "reference.send"},
    {"(unary_expression operator: \"<-\") @reference.receive", "unary_expression", NULL,
     "operator", "<-", NULL, 1, "reference.receive"},
    {"(source_file (comment) @comment.build)", "comment", "source_file", NULL, NULL, NULL, 0,
     "comment.build"},
    {"(function_declaration) @definition.function", "function_declaration", NULL, NULL, NULL, NULL,
     0, "definition.function"},
    {"(method_declaration) @definition.method", "method_declaration", NULL, NULL, NULL, NULL, 0,
     "definition.method"},
    {"(type_spec) @definition.type", "type_spec", NULL, NULL, NULL, NULL, 0, "definition.type"},
    {"(type_alias) @definition.type", "type_alias", NULL, NULL, NULL, NULL, 0, "definition.type"},
    {"(var_spec) @definition.var", "var_spec", NULL, NULL, NULL, NULL, 0, "definition.var"},
    {"(const_spec) @definition.const", "const_spec", NULL, NULL, NULL, NULL, 0,
     "definition.const"},
    {"(import_spec) @reference.import", "import_spec", NULL, NULL, NULL, NULL, 0,
     "reference.import"},
    {"(package_clause (package_identifier) @package)", "package_identifier", "package_clause", NULL,
     NULL, NULL, 0, "package"},
    {"(func_literal) @definition.closure", "func_literal", NULL, NULL, NULL, NULL, 0,
     "definition.closure"},
    {"(composite_literal body: (literal_value (keyed_element))) @reference.composite",
     "composite_literal", NULL, "body", "literal_value", "keyed_element", 0,
     "reference.composite"},
    {"(composite_literal body: (literal_value (literal_element))) @reference.composite",
     "composite_literal", NULL, "body", "literal_value", "literal_element", 0,
     "reference.composite"},
    {"(block) @scope", "block", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(if_statement) @scope", "if_statement", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(for_statement) @scope", "for_statement", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(expression_switch_statement) @scope", "expression_switch_statement", NULL, NULL, NULL, NULL,
     0, "scope"},
    {"(type_switch_statement) @scope", "type_switch_statement", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(select_statement) @scope", "select_statement", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(expression_case) @scope", "expression_case", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(default_case) @scope", "default_case", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(type_case) @scope", "type_case", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(communication_case) @scope", "communication_case", NULL, NULL, NULL, NULL, 0, "scope"},
    {"(break_statement) @jump", "break_statement", NULL, NULL, NULL, NULL, 0, "jump"},
    {"(continue_statement) @jump", "continue_statement", NULL, NULL, NULL, NULL, 0, "jump"},
    {"(goto_statement) @jump", "goto_statement", NULL, NULL, NULL, NULL, 0, "jump"},
    {"(fallthrough_statement) @jump", "fallthrough_statement", NULL, NULL, NULL, NULL, 0, "jump"},
};

/* Canonical symbol of a node type name, or -1 when the grammar has none. */
static int32_t symbol_named(const State *st, const TSLanguage *language, const char *name,
                            int named) {
  TSSymbol s = ts_language_symbol_for_name(language, name, (uint32_t)strlen(name), named);
  return s == 0 ? -1 : canon_of(st, s);
}

/* Pattern source without `;` comments, whitespace folded to single spaces, trimmed. */
static void fold_pattern(const char *src, uint32_t len, char *out, size_t cap) {
  size_t n = 0;
  int space = 0, in_string = 0;
  for (uint32_t i = 0; i < len && n + 1 < cap; i++) {
    char c = src[i];
    if (!in_string && c == ';') {
      while (i < len && src[i] != '\n') i++;
      space = n > 0;
      continue;
    }
    if (c == '"') in_string = !in_string;
    if (!in_string && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
      space = n > 0;
      continue;
    }
    if (space) out[n++] = ' ';
    space = 0;
    out[n++] = c;
  }
  out[n] = 0;
}

/* Maps every pattern of the query to a Rule; leaves st->fast 0 when one is unknown. */
static void setup_rules(State *st, const TSLanguage *language, const char *source) {
  uint32_t patterns = ts_query_pattern_count(st->query);
  st->rules = calloc(patterns ? patterns : 1, sizeof(Rule));
  st->rules_by_type = malloc(st->symbol_count * RULES_PER_TYPE * sizeof(int16_t));
  for (size_t i = 0; i < st->symbol_count * RULES_PER_TYPE; i++) st->rules_by_type[i] = -1;
  st->rule_count = 0;
  for (uint32_t p = 0; p < patterns; p++) {
    uint32_t start = ts_query_start_byte_for_pattern(st->query, p);
    uint32_t end = ts_query_end_byte_for_pattern(st->query, p);
    char text[512];
    fold_pattern(source + start, end - start, text, sizeof text);
    const KnownPattern *known = NULL;
    for (size_t k = 0; k < sizeof KNOWN / sizeof KNOWN[0]; k++)
      if (strcmp(KNOWN[k].text, text) == 0) known = &KNOWN[k];
    if (!known) return;
    Rule r;
    r.type = symbol_named(st, language, known->type, 1);
    r.parent = known->parent ? symbol_named(st, language, known->parent, 1) : -1;
    r.field = known->field ? ts_language_field_id_for_name(language, known->field,
                                                           (uint32_t)strlen(known->field))
                           : 0;
    r.child = known->child ? symbol_named(st, language, known->child, !known->child_anonymous)
                           : -1;
    r.grandchild = known->grandchild ? symbol_named(st, language, known->grandchild, 1) : -1;
    r.pattern = p;
    r.capture = UINT32_MAX;
    for (uint32_t c = 0; c < st->capture_count; c++) {
      uint32_t len = 0;
      const char *name = ts_query_capture_name_for_id(st->query, c, &len);
      if (len == strlen(known->capture) && memcmp(name, known->capture, len) == 0) r.capture = c;
    }
    if (r.type < 0 || (known->parent && r.parent < 0) || (known->field && r.field == 0) ||
        (known->child && r.child < 0) || (known->grandchild && r.grandchild < 0) ||
        r.capture == UINT32_MAX)
      return;
    int16_t *slots = st->rules_by_type + (size_t)r.type * RULES_PER_TYPE;
    int k = 0;
    while (k < RULES_PER_TYPE && slots[k] >= 0) k++;
    if (k == RULES_PER_TYPE) return;
    slots[k] = (int16_t)st->rule_count;
    st->rules[st->rule_count++] = r;
  }
  st->fast = 1;
}

/*
 * For a rule with a field, where its match ends: `done`, the child (or grandchild) whose entry
 * completes it, or `dead`, the child whose entry ends it unmatched, as the cursor decides: a
 * child in the field that is not of the type wanted (the fields of these patterns occur once a
 * node), or the last child with none matched. NULL for both: the match ends with the node.
 */
static void match_end(State *st, const Rule *r, TSNode node, const void **done,
                      const void **dead) {
  *done = *dead = NULL;
  TSTreeCursor *c = &st->field_cursor;
  if (!st->field_cursor_ready) {
    *c = ts_tree_cursor_new(node);
    st->field_cursor_ready = 1;
  } else {
    ts_tree_cursor_reset(c, node);
  }
  if (!ts_tree_cursor_goto_first_child(c)) return;
  for (;;) {
    TSNode child = ts_tree_cursor_current_node(c);
    if (ts_tree_cursor_current_field_id(c) == r->field) {
      int wanted = r->child < 0 ? ts_node_is_named(child) && !ts_node_is_error(child)
                                : canon_of(st, ts_node_symbol(child)) == r->child;
      if (!wanted) {
        *dead = child.id;
        return;
      }
      if (r->grandchild < 0) {
        *done = child.id;
        return;
      }
      if (!ts_tree_cursor_goto_first_child(c)) return;
      for (;;) {
        TSNode grandchild = ts_tree_cursor_current_node(c);
        if (canon_of(st, ts_node_symbol(grandchild)) == r->grandchild) {
          *done = grandchild.id;
          return;
        }
        if (!ts_tree_cursor_goto_next_sibling(c)) {
          *dead = grandchild.id;
          return;
        }
      }
    }
    if (!ts_tree_cursor_goto_next_sibling(c)) {
      *dead = child.id;
      return;
    }
  }
}

static Match *grow_matches(Match **list, size_t *len, size_t *cap) {
  if (*len == *cap) {
    size_t next = *cap ? *cap * 2 : 256;
    Match *m = realloc(*list, next * sizeof(Match));
    if (!m) return NULL;
    *list = m;
    *cap = next;
  }
  return &(*list)[(*len)++];
}

static void push_match(State *st, TSNode node, uint32_t capture, uint32_t pattern) {
  Match *m = grow_matches(&st->matches, &st->match_len, &st->match_cap);
  if (!m) return;
  m->node = node;
  m->start = ts_node_start_byte(node);
  m->capture = capture;
  m->pattern = pattern;
  m->order = 0;
  m->doc = -1;
}

/* The cursor's order of captures free together: start byte, pattern index, then the order their
 * matches finished in. */
static int compare_matches(const void *a, const void *b) {
  const Match *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->pattern != y->pattern) return x->pattern < y->pattern ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * What the query cursor does, for these patterns: a match finishes when its last node is entered
 * (a rule without a field at its node, one with a field at the completing child), and the cursor
 * hands out a finished capture only when no capture of an unfinished match comes before it (by
 * start byte, then pattern index). A rule with a field holds its capture unfinished from its
 * node's entry to the child that completes or ends the match (match_end): inside a type switch
 * with no alias, every capture waits for the closing brace.
 */
typedef struct {
  Match match;
  const void *done, *dead; /* entering `done` completes the match, entering `dead` ends it */
  uint32_t depth;
} Pending;

typedef struct {
  /* Finished, not handed out: a binary heap in the cursor's order (compare_matches), so a long
   * wait (aws-sdk-go's endpoints table: 11,786 captures behind one unfinished match) costs a log
   * per capture, where sorting the whole list at each node cost 21 s for one 747 KB file. */
  Match *held;
  size_t held_len, held_cap;
  Pending *pending; /* unfinished */
  size_t pending_len, pending_cap;
  uint32_t order;
} Release;

static void finish(Release *r, Match m) {
  Match *slot = grow_matches(&r->held, &r->held_len, &r->held_cap);
  if (!slot) return;
  m.order = r->order++;
  /* Sift up. */
  size_t i = r->held_len - 1;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (compare_matches(&r->held[up], &m) <= 0) break;
    r->held[i] = r->held[up];
    i = up;
  }
  r->held[i] = m;
}

/* Takes the heap's first match out. */
static Match take_first(Release *r) {
  Match first = r->held[0];
  Match last = r->held[--r->held_len];
  size_t i = 0, n = r->held_len;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && compare_matches(&r->held[child + 1], &r->held[child]) < 0) child++;
    if (compare_matches(&last, &r->held[child]) <= 0) break;
    r->held[i] = r->held[child];
    i = child;
  }
  if (n > 0) r->held[i] = last;
  return first;
}

static int precedes(const Match *m, const Match *first) {
  return !first || m->start < first->start ||
         (m->start == first->start && m->pattern < first->pattern);
}

/* Hands out the finished captures no unfinished one precedes, in the cursor's order. */
static void release(State *st, Release *r) {
  if (r->held_len == 0) return;
  const Match *first = NULL;
  for (size_t i = 0; i < r->pending_len; i++) {
    const Match *m = &r->pending[i].match;
    if (precedes(m, first)) first = m;
  }
  while (r->held_len > 0 && precedes(&r->held[0], first)) {
    Match m = take_first(r);
    Match *out = grow_matches(&st->matches, &st->match_len, &st->match_cap);
    if (out) *out = m;
  }
}

static int32_t doc_block(State *st, TSNode node, uint32_t depth);

static void enter_node(State *st, Release *r, TSNode node, int32_t type, int32_t parent,
                       uint32_t depth) {
  for (size_t i = 0; i < r->pending_len;) {
    const Pending *p = &r->pending[i];
    if (p->done == node.id || p->dead == node.id) {
      if (p->done == node.id) finish(r, p->match);
      r->pending[i] = r->pending[--r->pending_len];
    } else {
      i++;
    }
  }
  const int16_t *rules = st->rules_by_type + (size_t)type * RULES_PER_TYPE;
  for (int k = 0; k < RULES_PER_TYPE && rules[k] >= 0; k++) {
    const Rule *rule = &st->rules[rules[k]];
    if (rule->parent >= 0 && parent != rule->parent) continue;
    Match m = {node, ts_node_start_byte(node), rule->capture, rule->pattern, 0,
               st->doc_capture[rule->capture] ? doc_block(st, node, depth) : -1};
    if (rule->field == 0) {
      finish(r, m);
      continue;
    }
    if (r->pending_len == r->pending_cap) {
      size_t next = r->pending_cap ? r->pending_cap * 2 : 16;
      Pending *p = realloc(r->pending, next * sizeof(Pending));
      if (!p) continue;
      r->pending = p;
      r->pending_cap = next;
    }
    Pending *p = &r->pending[r->pending_len++];
    p->match = m;
    p->depth = depth;
    match_end(st, rule, node, &p->done, &p->dead);
  }
  release(st, r);
}

/* Leaving a node ends the matches still waiting on its children. */
static void leave_node(State *st, Release *r, uint32_t depth) {
  int dropped = 0;
  for (size_t i = 0; i < r->pending_len;) {
    if (r->pending[i].depth == depth) {
      r->pending[i] = r->pending[--r->pending_len];
      dropped = 1;
    } else {
      i++;
    }
  }
  if (dropped) release(st, r);
}

/*
 * Per depth of the matcher's pass (LEVEL_INTS ints): where the comments before the current node
 * of that depth begin in `runs` (RUN_BEGIN), the run before that node itself, kept while its
 * subtree is walked (OWN_BEGIN, OWN_END), and whether that node is a comment (IS_COMMENT).
 */
enum { RUN_BEGIN, OWN_BEGIN, OWN_END, IS_COMMENT, LEVEL_INTS };

static int ensure_depth(State *st, uint32_t depth) {
  size_t want = (size_t)(depth + 1) * LEVEL_INTS;
  if (st->levels.len < want) {
    if (!buf_reserve(&st->levels, want - st->levels.len)) return 0;
    st->levels.len = want;
  }
  if (depth >= st->ancestors_cap) {
    size_t cap = st->ancestors_cap ? st->ancestors_cap * 2 : 64;
    while (cap <= depth) cap *= 2;
    TSNode *a = realloc(st->ancestors, cap * sizeof(TSNode));
    if (!a) return 0;
    st->ancestors = a;
    st->ancestors_cap = cap;
  }
  return 1;
}

/* The comments of a run, the last first, while each ends on the line before the next starts:
 * appends count then start/end pairs in document order, as push_doc_comments does. */
static void push_run_docs(State *st, IntBuf *out, int32_t at, int32_t to, uint32_t row) {
  int32_t begin = at / 4, end = to / 4; /* ints of `runs` to comments */
  int32_t first = end;
  int64_t expected = (int64_t)row - 1;
  while (first > begin && end - first < 128) {
    const int32_t *c = st->runs.data + (size_t)(first - 1) * 4;
    if ((int64_t)(uint32_t)c[3] != expected) break;
    expected = (int64_t)(uint32_t)c[2] - 1;
    first--;
  }
  buf_reserve(out, 1 + (size_t)(end - first) * 2);
  buf_push(out, end - first);
  for (int32_t i = first; i < end; i++) {
    buf_push(out, st->runs.data[(size_t)i * 4]);
    buf_push(out, st->runs.data[(size_t)i * 4 + 1]);
  }
}

/* A doc capture's block, as the output loop writes it for the query cursor's captures: own doc
 * comments, the parent's type and named-child count, the parent's doc comments. */
static int32_t doc_block(State *st, TSNode node, uint32_t depth) {
  int32_t at = (int32_t)st->docbuf.len;
  const int32_t *own = st->levels.data + (size_t)depth * LEVEL_INTS;
  push_run_docs(st, &st->docbuf, own[OWN_BEGIN], own[OWN_END], ts_node_start_point(node).row);
  if (depth == 0) {
    buf_push(&st->docbuf, -1);
    buf_push(&st->docbuf, 0);
    buf_push(&st->docbuf, 0);
    return at;
  }
  TSNode parent = st->ancestors[depth - 1];
  const int32_t *up = st->levels.data + (size_t)(depth - 1) * LEVEL_INTS;
  buf_push(&st->docbuf, canon_of(st, ts_node_symbol(parent)));
  buf_push(&st->docbuf, (int32_t)ts_node_named_child_count(parent));
  push_run_docs(st, &st->docbuf, up[OWN_BEGIN], up[OWN_END], ts_node_start_point(parent).row);
  return at;
}

/* One depth-first pass over the tree; the captures land in st->matches in the cursor's order. */
static void match_tree(State *st, TSNode root) {
  st->runs.len = 0;
  st->levels.len = 0;
  st->docbuf.len = 0;
  if (!ensure_depth(st, 0)) return;
  st->levels.data[RUN_BEGIN] = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  IntBuf *parents = &st->parents;
  parents->len = 0;
  Release r = {0};
  int32_t parent = -1;
  uint32_t depth = 0;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    int32_t type = canon_of(st, ts_node_symbol(node));
    int32_t *level = st->levels.data + (size_t)depth * LEVEL_INTS;
    st->ancestors[depth] = node;
    level[OWN_BEGIN] = level[RUN_BEGIN];
    level[OWN_END] = (int32_t)st->runs.len;
    level[IS_COMMENT] = (st->flags[type] & FLAG_COMMENT) != 0;
    if (level[IS_COMMENT] && buf_reserve(&st->runs, 4)) {
      st->runs.data[st->runs.len++] = offset16(st, ts_node_start_byte(node));
      st->runs.data[st->runs.len++] = offset16(st, ts_node_end_byte(node));
      st->runs.data[st->runs.len++] = (int32_t)ts_node_start_point(node).row;
      st->runs.data[st->runs.len++] = (int32_t)ts_node_end_point(node).row;
    }
    if (st->rules_by_type[(size_t)type * RULES_PER_TYPE] >= 0 || r.pending_len > 0)
      enter_node(st, &r, node, type, parent, depth);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      buf_push(parents, parent);
      parent = type;
      depth++;
      if (!ensure_depth(st, depth)) break;
      st->levels.data[(size_t)depth * LEVEL_INTS + RUN_BEGIN] = (int32_t)st->runs.len;
      continue;
    }
    for (;;) {
      if (r.pending_len > 0) leave_node(st, &r, depth);
      /* The node at this depth is done: after anything but a comment, the run starts again. */
      level = st->levels.data + (size_t)depth * LEVEL_INTS;
      if (!level[IS_COMMENT]) st->runs.len = (size_t)level[RUN_BEGIN];
      if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        release(st, &r);
        ts_tree_cursor_delete(&cursor);
        free(r.held);
        free(r.pending);
        return;
      }
      parent = parents->data[--parents->len];
      depth--;
    }
  }
  ts_tree_cursor_delete(&cursor);
  free(r.held);
  free(r.pending);
}

/* ---- N-API glue ---- */

#define CHECK(call)                                                                    \
  do {                                                                                 \
    if ((call) != napi_ok) {                                                           \
      napi_throw_error(env, NULL, "k8s-read native: " #call " failed");                \
      return NULL;                                                                     \
    }                                                                                  \
  } while (0)

static void free_state(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  State *st = data;
  if (st->query_cursor) ts_query_cursor_delete(st->query_cursor);
  if (st->query) ts_query_delete(st->query);
  if (st->parser) ts_parser_delete(st->parser);
  free(st->canon);
  free(st->flags);
  free(st->doc_capture);
  free(st->skip_capture);
  free(st->nodes.data);
  free(st->captures.data);
  free(st->docs.data);
  free(st->errors.data);
  free(st->seen.keys);
  free(st->seen.types);
  free(st->seen.values);
  free(st->utf16);
  free(st->stack.data);
  free(st->rules);
  free(st->rules_by_type);
  free(st->matches);
  free(st->parents.data);
  free(st->runs.data);
  free(st->levels.data);
  free(st->docbuf.data);
  free(st->ancestors);
  if (st->field_cursor_ready) ts_tree_cursor_delete(&st->field_cursor);
  free(st);
}

static char *get_string(napi_env env, napi_value value, size_t *length) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &len) != napi_ok) return NULL;
  char *s = malloc(len + 1);
  if (!s) return NULL;
  napi_get_value_string_utf8(env, value, s, len + 1, &len);
  if (length) *length = len;
  return s;
}

/* Whether a JavaScript array of strings holds `name`. */
static int name_in(napi_env env, napi_value array, const char *name) {
  uint32_t n = 0;
  napi_get_array_length(env, array, &n);
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    napi_get_element(env, array, i, &item);
    char buf[128];
    size_t len = 0;
    if (napi_get_value_string_utf8(env, item, buf, sizeof buf, &len) != napi_ok) continue;
    if (strcmp(buf, name) == 0) return 1;
  }
  return 0;
}

static napi_value named_property(napi_env env, napi_value object, const char *name) {
  napi_value value;
  if (napi_get_named_property(env, object, name, &value) != napi_ok) return NULL;
  return value;
}

/* The arguments of a call (at least one, at most `max`; missing ones undefined) and this
 * thread's state (NULL before configure). */
static int read_call(napi_env env, napi_callback_info info, napi_value *arg, size_t max,
                     State **st) {
  size_t argc = max;
  if (napi_get_cb_info(env, info, &argc, arg, NULL, NULL) != napi_ok || argc < 1) {
    napi_throw_error(env, NULL, "k8s-read native: an argument expected");
    return 0;
  }
  *st = NULL;
  napi_get_instance_data(env, (void **)st);
  return 1;
}

/*
 * configure({ query, leafTypes, bodyTypes, fieldedTypes, keptTokens, docCaptures, skipCaptures })
 * -> { captureNames, typeNames, typeNamed, fieldNames }
 */
static napi_value configure(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  State *st;
  if (!read_call(env, info, argv, 1, &st)) return NULL;
  if (st) {
    napi_throw_error(env, NULL, "k8s-read native: configure() runs once per thread");
    return NULL;
  }
  st = calloc(1, sizeof(State));
  const TSLanguage *language = tree_sitter_go();
  st->parser = ts_parser_new();
  ts_parser_set_language(st->parser, language);
  size_t query_len = 0;
  char *query_source = get_string(env, named_property(env, argv[0], "query"), &query_len);
  uint32_t error_offset = 0;
  TSQueryError error_type = TSQueryErrorNone;
  st->query = ts_query_new(language, query_source, (uint32_t)query_len, &error_offset, &error_type);
  if (!st->query) {
    free(query_source);
    char message[128];
    snprintf(message, sizeof message, "k8s-read native: query error %d at offset %u",
             (int)error_type, error_offset);
    free_state(env, st, NULL);
    napi_throw_error(env, NULL, message);
    return NULL;
  }
  st->query_cursor = ts_query_cursor_new();

  uint32_t symbols = ts_language_symbol_count(language);
  /* One slot more than the language has: ERROR nodes' (see canon_of). */
  st->symbol_count = symbols + 1;
  st->canon = malloc((symbols + 1) * sizeof(uint16_t));
  st->flags = calloc(symbols + 1, 1);
  napi_value leaf = named_property(env, argv[0], "leafTypes");
  napi_value body = named_property(env, argv[0], "bodyTypes");
  napi_value fielded = named_property(env, argv[0], "fieldedTypes");
  napi_value kept = named_property(env, argv[0], "keptTokens");
  napi_value type_names, type_named;
  CHECK(napi_create_array_with_length(env, symbols + 1, &type_names));
  CHECK(napi_create_array_with_length(env, symbols + 1, &type_named));
  for (uint32_t s = 0; s < symbols; s++) {
    const char *name = ts_language_symbol_name(language, (TSSymbol)s);
    int named = ts_language_symbol_type(language, (TSSymbol)s) == TSSymbolTypeRegular;
    uint16_t canon = (uint16_t)s;
    for (uint32_t t = 0; t < s; t++) {
      if (strcmp(ts_language_symbol_name(language, (TSSymbol)t), name) == 0 &&
          (ts_language_symbol_type(language, (TSSymbol)t) == TSSymbolTypeRegular) == named) {
        canon = (uint16_t)t;
        break;
      }
    }
    st->canon[s] = canon;
    napi_value js_name, js_named;
    napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &js_name);
    napi_get_boolean(env, named, &js_named);
    napi_set_element(env, type_names, s, js_name);
    napi_set_element(env, type_named, s, js_named);
    if (canon != s) continue;
    uint8_t f = 0;
    if (named && name_in(env, leaf, name)) f |= FLAG_LEAF;
    if (named && name_in(env, body, name)) f |= FLAG_BODY;
    if (named && name_in(env, fielded, name)) f |= FLAG_FIELDED;
    if (!named && name_in(env, kept, name)) f |= FLAG_KEPT;
    if (named && strcmp(name, "comment") == 0) f |= FLAG_COMMENT;
    st->flags[s] = f;
  }
  st->canon[symbols] = (uint16_t)symbols;
  {
    napi_value js_name, js_named;
    napi_create_string_utf8(env, "ERROR", NAPI_AUTO_LENGTH, &js_name);
    napi_get_boolean(env, true, &js_named);
    napi_set_element(env, type_names, symbols, js_name);
    napi_set_element(env, type_named, symbols, js_named);
  }

  uint32_t fields = ts_language_field_count(language);
  napi_value field_names;
  CHECK(napi_create_array_with_length(env, fields + 1, &field_names));
  for (uint32_t f = 0; f <= fields; f++) {
    const char *name = f == 0 ? NULL : ts_language_field_name_for_id(language, (TSFieldId)f);
    napi_value js;
    if (name) napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &js);
    else napi_get_null(env, &js);
    napi_set_element(env, field_names, f, js);
  }

  uint32_t captures = ts_query_capture_count(st->query);
  st->capture_count = captures;
  st->doc_capture = calloc(captures ? captures : 1, sizeof(uint32_t));
  st->skip_capture = calloc(captures ? captures : 1, sizeof(uint32_t));
  napi_value doc_captures = named_property(env, argv[0], "docCaptures");
  napi_value skip_captures = named_property(env, argv[0], "skipCaptures");
  napi_value capture_names;
  CHECK(napi_create_array_with_length(env, captures, &capture_names));
  for (uint32_t c = 0; c < captures; c++) {
    uint32_t len = 0;
    const char *name = ts_query_capture_name_for_id(st->query, c, &len);
    char buf[128];
    size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
    memcpy(buf, name, n);
    buf[n] = 0;
    st->doc_capture[c] = (uint32_t)name_in(env, doc_captures, buf);
    st->skip_capture[c] = (uint32_t)name_in(env, skip_captures, buf);
    napi_value js;
    napi_create_string_utf8(env, buf, n, &js);
    napi_set_element(env, capture_names, c, js);
  }
  setup_rules(st, language, query_source);
  free(query_source);
  CHECK(napi_set_instance_data(env, st, free_state, NULL));

  napi_value result;
  CHECK(napi_create_object(env, &result));
  napi_set_named_property(env, result, "captureNames", capture_names);
  napi_set_named_property(env, result, "typeNames", type_names);
  napi_set_named_property(env, result, "typeNamed", type_named);
  napi_set_named_property(env, result, "fieldNames", field_names);
  napi_value fast;
  napi_get_boolean(env, st->fast, &fast);
  napi_set_named_property(env, result, "matcher", fast);
  return result;
}

static napi_value to_int32_array(napi_env env, const IntBuf *b) {
  napi_value arraybuffer, array;
  void *data = NULL;
  if (napi_create_arraybuffer(env, b->len * sizeof(int32_t), &data, &arraybuffer) != napi_ok)
    return NULL;
  if (b->len) memcpy(data, b->data, b->len * sizeof(int32_t));
  if (napi_create_typedarray(env, napi_int32_array, b->len, arraybuffer, 0, &array) != napi_ok)
    return NULL;
  return array;
}

/*
 * parse(source: Uint8Array (UTF-8)) -> { nodes, captures, docs, errors: Int32Array, lines, hasError }
 * captures: 5 ints each: capture id, node index (-1 when not walked), start, end, docs offset (-1
 * when none). docs at an offset: own comments (count, start/end pairs), parent type, parent's
 * named child count, parent's comments (count, pairs).
 */
static napi_value parse(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  State *st;
  if (!read_call(env, info, argv, 2, &st)) return NULL;
  if (!st) {
    napi_throw_error(env, NULL, "k8s-read native: configure() first");
    return NULL;
  }
  napi_typedarray_type kind;
  size_t length = 0, byte_offset = 0;
  void *data = NULL;
  napi_value arraybuffer;
  CHECK(napi_get_typedarray_info(env, argv[0], &kind, &length, &data, &arraybuffer, &byte_offset));
  const uint8_t *source = data;

  /* UTF-16 offsets for sources with non-ASCII bytes. */
  int ascii = 1;
  for (size_t i = 0; i < length; i++) {
    if (source[i] & 0x80) {
      ascii = 0;
      break;
    }
  }
  if (!ascii) {
    if (st->utf16_cap < length + 1) {
      free(st->utf16);
      st->utf16 = malloc((length + 1) * sizeof(uint32_t));
      st->utf16_cap = length + 1;
    }
    uint32_t u = 0;
    for (size_t i = 0; i < length;) {
      uint8_t c = source[i];
      size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      if (i + n > length) n = length - i;
      for (size_t k = 0; k < n; k++) st->utf16[i + k] = u;
      u += n == 4 ? 2 : 1;
      i += n;
    }
    st->utf16[length] = u;
  }
  st->offsets = ascii ? NULL : st->utf16;

  TSTree *tree = ts_parser_parse_string(st->parser, NULL, (const char *)source, (uint32_t)length);
  TSNode root = ts_tree_root_node(tree);
  st->nodes.len = st->captures.len = st->docs.len = st->errors.len = 0;
  set_reset(&st->seen, length / 16 + 64);

  /* The second argument (true) runs the query on tree-sitter's cursor even when the matcher
   * knows every pattern: the tests compare the two. */
  bool use_query = false;
  napi_valuetype second = napi_undefined;
  if (napi_typeof(env, argv[1], &second) == napi_ok && second == napi_boolean)
    napi_get_value_bool(env, argv[1], &use_query);
  st->match_len = 0;
  st->captured_only = st->fast && !use_query;
  if (st->fast && !use_query) {
    match_tree(st, root);
  } else {
    ts_query_cursor_exec(st->query_cursor, st->query, root);
    TSQueryMatch match;
    uint32_t capture_index;
    while (ts_query_cursor_next_capture(st->query_cursor, &match, &capture_index)) {
      TSQueryCapture capture = match.captures[capture_index];
      push_match(st, capture.node, capture.index, match.pattern_index);
    }
  }
  for (size_t m = 0; m < st->match_len; m++) {
    TSNode node = st->matches[m].node;
    uint32_t id = st->matches[m].capture;
    int32_t index = -1;
    if (!st->skip_capture[id]) {
      int32_t type = canon_of(st, ts_node_symbol(node));
      index = set_find(&st->seen, ts_node_start_byte(node), ts_node_end_byte(node), type);
      if (index < 0) {
        walk(st, node);
        index = set_find(&st->seen, ts_node_start_byte(node), ts_node_end_byte(node), type);
      }
    }
    int32_t docs = -1;
    if (st->doc_capture[id] && st->matches[m].doc >= 0) {
      /* The matcher's block: own count and pairs, parent type and named children, their count
       * and pairs. */
      docs = (int32_t)st->docs.len;
      const int32_t *b = st->docbuf.data + st->matches[m].doc;
      size_t n = 1 + (size_t)b[0] * 2;
      n += 2 + 1 + (size_t)b[n + 2] * 2;
      if (buf_reserve(&st->docs, n)) {
        memcpy(st->docs.data + st->docs.len, b, n * sizeof(int32_t));
        st->docs.len += n;
      }
    } else if (st->doc_capture[id]) {
      docs = (int32_t)st->docs.len;
      push_doc_comments(st, node);
      TSNode parent = ts_node_parent(node);
      if (ts_node_is_null(parent)) {
        buf_push(&st->docs, -1);
        buf_push(&st->docs, 0);
        buf_push(&st->docs, 0);
      } else {
        buf_push(&st->docs, canon_of(st, ts_node_symbol(parent)));
        buf_push(&st->docs, (int32_t)ts_node_named_child_count(parent));
        push_doc_comments(st, parent);
      }
    }
    buf_reserve(&st->captures, 5);
    buf_push(&st->captures, (int32_t)id);
    buf_push(&st->captures, index);
    buf_push(&st->captures, offset16(st, ts_node_start_byte(node)));
    buf_push(&st->captures, offset16(st, ts_node_end_byte(node)));
    buf_push(&st->captures, docs);
  }
  int has_error = ts_node_has_error(root);
  if (has_error) collect_errors(st, root);
  uint32_t lines = ts_node_end_point(root).row + 1;
#ifndef NO_DELETE
  ts_tree_delete(tree);
#endif

  napi_value result, value;
  CHECK(napi_create_object(env, &result));
  napi_set_named_property(env, result, "nodes", to_int32_array(env, &st->nodes));
  napi_set_named_property(env, result, "captures", to_int32_array(env, &st->captures));
  napi_set_named_property(env, result, "docs", to_int32_array(env, &st->docs));
  napi_set_named_property(env, result, "errors", to_int32_array(env, &st->errors));
  napi_create_uint32(env, lines, &value);
  napi_set_named_property(env, result, "lines", value);
  napi_get_boolean(env, has_error, &value);
  napi_set_named_property(env, result, "hasError", value);
  return result;
}

/*
 * Hands the memory that malloc keeps free back to the system. The parser threads allocate in
 * arenas of their own (tree-sitter's trees, the arrays above); glibc keeps what they freed when
 * they exit, ~100 MB of resident memory that the rest of an index never reuses. Elsewhere a no-op.
 */
static napi_value trim_memory(napi_env env, napi_callback_info info) {
  (void)info;
  bool trimmed = false;
#if defined(__GLIBC__)
  trimmed = malloc_trim(0) != 0;
#endif
  napi_value result;
  napi_get_boolean(env, trimmed, &result);
  return result;
}

#if !defined(_WIN32)
static void unmap_file(napi_env env, void *data, void *hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}
#endif

/*
 * mapFile(path): the file's bytes as an ArrayBuffer backed by a private mapping (writes, which
 * k8s-read never makes, would stay in this process), unmapped when the buffer is collected; null
 * where the file cannot be mapped (missing, empty, another platform): the caller reads it instead.
 * Files k8s-read maps are replaced by rename, never rewritten in place, so the mapping always
 * holds one whole file.
 */
static napi_value map_file(napi_env env, napi_callback_info info) {
  napi_value result;
  napi_get_null(env, &result);
#if !defined(_WIN32)
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char path[4096];
  size_t length = 0;
  if (argc < 1 ||
      napi_get_value_string_utf8(env, argv[0], path, sizeof path, &length) != napi_ok ||
      length >= sizeof path - 1)
    return result;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return result;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size <= 0) {
    close(fd);
    return result;
  }
  size_t size = (size_t)st.st_size;
  void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  close(fd);
  if (data == MAP_FAILED) return result;
  if (napi_create_external_arraybuffer(env, data, size, unmap_file, (void *)(uintptr_t)size,
                                       &result) != napi_ok) {
    munmap(data, size);
    napi_get_null(env, &result);
  }
#else
  (void)info;
#endif
  return result;
}

/*
 * statPaths(base, list): one pass of lstat over many paths, for the index's discovery stamp
 * (src/index/discovery-stamp.ts). `list` holds the paths separated by NUL bytes, each relative to
 * `base` unless it starts with `/`. Returns a Float64Array of three numbers: a 64-bit FNV-1a digest
 * of every path's type, mode, size, inode, device, modification and change times (or of its
 * errno, for a path that cannot be read), split into its high and low 32 bits; and the newest
 * modification or change time among them, in milliseconds. Null on another platform. One native
 * call instead of one `lstatSync` each: ~4 us a path here against ~7 us through Node.
 */
static uint64_t fnv_mix(uint64_t hash, uint64_t value) {
  for (int i = 0; i < 8; i++) {
    hash ^= (value >> (i * 8)) & 0xff;
    hash *= 1099511628211ULL;
  }
  return hash;
}

static napi_value stat_paths(napi_env env, napi_callback_info info) {
  napi_value result;
  napi_get_null(env, &result);
#if !defined(_WIN32)
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char base[4096];
  size_t base_length = 0;
  if (argc < 2 ||
      napi_get_value_string_utf8(env, argv[0], base, sizeof base, &base_length) != napi_ok ||
      base_length >= sizeof base - 2)
    return result;
  // A Buffer is a Uint8Array: one way to read either.
  napi_typedarray_type type;
  size_t size = 0;
  void *data = NULL;
  napi_value backing;
  size_t offset;
  if (napi_get_typedarray_info(env, argv[1], &type, &size, &data, &backing, &offset) != napi_ok ||
      type != napi_uint8_array)
    return result;
  const char *bytes = data;
  char full[8192];
  uint64_t hash = 14695981039346656037ULL;
  double newest = 0;
  size_t start = 0;
  while (start < size) {
    const char *end = memchr(bytes + start, 0, size - start);
    size_t length = end ? (size_t)(end - (bytes + start)) : size - start;
    // An absolute path as it is, any other below `base`.
    size_t prefix = length > 0 && bytes[start] == '/' ? 0 : base_length + 1;
    const char *target = NULL;
    if (prefix + length < sizeof full) {
      if (prefix > 0) {
        memcpy(full, base, base_length);
        full[base_length] = '/';
      }
      memcpy(full + prefix, bytes + start, length);
      full[prefix + length] = 0;
      target = full;
    }
    struct stat st;
    if (target == NULL) {
      hash = fnv_mix(hash, (uint64_t)-1);
      hash = fnv_mix(hash, ENAMETOOLONG);
    } else if (lstat(target, &st) != 0) {
      hash = fnv_mix(hash, (uint64_t)-1);
      hash = fnv_mix(hash, (uint64_t)errno);
    } else {
      hash = fnv_mix(hash, (uint64_t)st.st_mode);
      hash = fnv_mix(hash, (uint64_t)st.st_size);
      hash = fnv_mix(hash, (uint64_t)st.st_ino);
      hash = fnv_mix(hash, (uint64_t)st.st_dev);
#if defined(__APPLE__)
      struct timespec mtime = st.st_mtimespec, ctime = st.st_ctimespec;
#else
      struct timespec mtime = st.st_mtim, ctime = st.st_ctim;
#endif
      hash = fnv_mix(hash, (uint64_t)mtime.tv_sec);
      hash = fnv_mix(hash, (uint64_t)mtime.tv_nsec);
      hash = fnv_mix(hash, (uint64_t)ctime.tv_sec);
      hash = fnv_mix(hash, (uint64_t)ctime.tv_nsec);
      double m = (double)mtime.tv_sec * 1e3 + (double)mtime.tv_nsec / 1e6;
      double c = (double)ctime.tv_sec * 1e3 + (double)ctime.tv_nsec / 1e6;
      if (m > newest) newest = m;
      if (c > newest) newest = c;
    }
    start += length + 1;
  }
  napi_value buffer;
  void *out = NULL;
  if (napi_create_arraybuffer(env, 3 * sizeof(double), &out, &buffer) != napi_ok) return result;
  double *numbers = out;
  numbers[0] = (double)(uint32_t)(hash >> 32);
  numbers[1] = (double)(uint32_t)(hash & 0xffffffffULL);
  numbers[2] = newest;
  napi_create_typedarray(env, napi_float64_array, 3, buffer, 0, &result);
#else
  (void)info;
#endif
  return result;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"configure", NULL, configure, NULL, NULL, NULL, napi_default, NULL},
      {"parse", NULL, parse, NULL, NULL, NULL, napi_default, NULL},
      {"trimMemory", NULL, trim_memory, NULL, NULL, NULL, napi_default, NULL},
      {"mapFile", NULL, map_file, NULL, NULL, NULL, napi_default, NULL},
      {"statPaths", NULL, stat_paths, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
