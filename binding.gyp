# The native half of `index` (src/native/capture-walk.c): tree-sitter's runtime and the Go grammar
# compiled from the sources the tree-sitter and tree-sitter-go packages ship, so nothing is
# downloaded. Built by `npm install` and `npm run build` (scripts/build-native.mjs).
{
  "targets": [
    {
      "target_name": "k8s_read_native",
      "sources": ["src/native/capture-walk.c"],
      "dependencies": ["tree_sitter_go"],
      "include_dirs": ["node_modules/tree-sitter/vendor/tree-sitter/lib/include"],
      "cflags_c": ["-std=c11"],
      "xcode_settings": {"OTHER_CFLAGS": ["-std=c11"]}
    },
    {
      "target_name": "tree_sitter_go",
      "type": "static_library",
      "sources": [
        "node_modules/tree-sitter/vendor/tree-sitter/lib/src/lib.c",
        "node_modules/tree-sitter-go/src/parser.c"
      ],
      "include_dirs": [
        "node_modules/tree-sitter/vendor/tree-sitter/lib/src",
        "node_modules/tree-sitter/vendor/tree-sitter/lib/include",
        "node_modules/tree-sitter-go/src"
      ],
      "defines": ["_POSIX_C_SOURCE=200112L", "_DEFAULT_SOURCE"],
      "cflags_c": ["-std=c11"],
      "xcode_settings": {"OTHER_CFLAGS": ["-std=c11"]}
    }
  ]
}
