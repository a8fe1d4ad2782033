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
 * - every capture, in the order ts_query_cursor_next_capture gives (node-tree-sitter's order);
 * - the subtree of each capture not already inside a walked subtree, where a walk stops at a
 *   `block` (below its root), does not enter leaf types (string literals), keeps named nodes
 *   (comments excepted) and, of the anonymous tokens, those in a field or listed as kept;
 * - for declaration captures, the comments directly above the node and above its parent (doc
 *   comments), and the parent's type and named-child count.
 *
 * Offsets are UTF-16 code units, as JavaScript strings index them.
 */
#include <node_api.h>
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

/* Walked nodes by (start, end, type): a capture inside a walked subtree is not walked again. */
typedef struct {
  uint64_t *keys; /* start << 32 | end, 0 = empty (start and end are never both 0 with type 0) */
  int32_t *types;
  int32_t *values;
  size_t cap, len;
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
} State;

enum { FLAG_LEAF = 1, FLAG_BODY = 2, FLAG_FIELDED = 4, FLAG_KEPT = 8, FLAG_COMMENT = 16 };

static void set_reset(NodeSet *s, size_t expected) {
  size_t want = 64;
  while (want < expected * 2) want *= 2;
  if (want > s->cap) {
    free(s->keys);
    free(s->types);
    free(s->values);
    s->keys = calloc(want, sizeof(uint64_t));
    s->types = malloc(want * sizeof(int32_t));
    s->values = malloc(want * sizeof(int32_t));
    s->cap = want;
  } else {
    memset(s->keys, 0, s->cap * sizeof(uint64_t));
  }
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
    int32_t type = st->canon[ts_node_symbol(node)];
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
 * appends count then start/end pairs. */
static void push_doc_comments(State *st, TSNode node) {
  int32_t spans[256];
  int count = 0;
  TSNode prev = ts_node_prev_sibling(node);
  int64_t expected = (int64_t)ts_node_start_point(node).row - 1;
  while (!ts_node_is_null(prev) && (st->flags[st->canon[ts_node_symbol(prev)]] & FLAG_COMMENT) &&
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

/* The one argument of a call and this thread's state (NULL before configure). */
static int read_call(napi_env env, napi_callback_info info, napi_value *arg, State **st) {
  size_t argc = 1;
  if (napi_get_cb_info(env, info, &argc, arg, NULL, NULL) != napi_ok || argc < 1) {
    napi_throw_error(env, NULL, "k8s-read native: one argument expected");
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
  if (!read_call(env, info, argv, &st)) return NULL;
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
  free(query_source);
  if (!st->query) {
    char message[128];
    snprintf(message, sizeof message, "k8s-read native: query error %d at offset %u",
             (int)error_type, error_offset);
    free_state(env, st, NULL);
    napi_throw_error(env, NULL, message);
    return NULL;
  }
  st->query_cursor = ts_query_cursor_new();

  uint32_t symbols = ts_language_symbol_count(language);
  st->symbol_count = symbols;
  st->canon = malloc(symbols * sizeof(uint16_t));
  st->flags = calloc(symbols, 1);
  napi_value leaf = named_property(env, argv[0], "leafTypes");
  napi_value body = named_property(env, argv[0], "bodyTypes");
  napi_value fielded = named_property(env, argv[0], "fieldedTypes");
  napi_value kept = named_property(env, argv[0], "keptTokens");
  napi_value type_names, type_named;
  CHECK(napi_create_array_with_length(env, symbols, &type_names));
  CHECK(napi_create_array_with_length(env, symbols, &type_named));
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
  CHECK(napi_set_instance_data(env, st, free_state, NULL));

  napi_value result;
  CHECK(napi_create_object(env, &result));
  napi_set_named_property(env, result, "captureNames", capture_names);
  napi_set_named_property(env, result, "typeNames", type_names);
  napi_set_named_property(env, result, "typeNamed", type_named);
  napi_set_named_property(env, result, "fieldNames", field_names);
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
  napi_value argv[1];
  State *st;
  if (!read_call(env, info, argv, &st)) return NULL;
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

  ts_query_cursor_exec(st->query_cursor, st->query, root);
  TSQueryMatch match;
  uint32_t capture_index;
  while (ts_query_cursor_next_capture(st->query_cursor, &match, &capture_index)) {
    TSQueryCapture capture = match.captures[capture_index];
    TSNode node = capture.node;
    uint32_t id = capture.index;
    int32_t index = -1;
    if (!st->skip_capture[id]) {
      int32_t type = st->canon[ts_node_symbol(node)];
      index = set_find(&st->seen, ts_node_start_byte(node), ts_node_end_byte(node), type);
      if (index < 0) {
        walk(st, node);
        index = set_find(&st->seen, ts_node_start_byte(node), ts_node_end_byte(node), type);
      }
    }
    int32_t docs = -1;
    if (st->doc_capture[id]) {
      docs = (int32_t)st->docs.len;
      push_doc_comments(st, node);
      TSNode parent = ts_node_parent(node);
      if (ts_node_is_null(parent)) {
        buf_push(&st->docs, -1);
        buf_push(&st->docs, 0);
        buf_push(&st->docs, 0);
      } else {
        buf_push(&st->docs, st->canon[ts_node_symbol(parent)]);
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

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"configure", NULL, configure, NULL, NULL, NULL, napi_default, NULL},
      {"parse", NULL, parse, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
