# The native half of `index` (src/native/capture-walk.c): tree-sitter's runtime and the Go grammar
# compiled from the sources the tree-sitter and tree-sitter-go packages ship, so nothing is
# downloaded. Built by `npm install` and `npm run build` (scripts/build-native.mjs).
{
  "variables": {
    # Where the tree-sitter and tree-sitter-go packages are (scripts/build-native.mjs passes the
    # directories npm put them in; these defaults are a clone's own node_modules).
    "tree_sitter_dir%": "node_modules/tree-sitter",
    "tree_sitter_go_dir%": "node_modules/tree-sitter-go"
  },
  "targets": [
    {
      "target_name": "k8s_read_native",
      "sources": ["src/native/capture-walk.c"],
      "dependencies": ["tree_sitter_go"],
      "include_dirs": ["<(tree_sitter_dir)/vendor/tree-sitter/lib/include"],
      "cflags_c": ["-std=c11"],
      "xcode_settings": {"OTHER_CFLAGS": ["-std=c11"]}
    },
    {
      "target_name": "tree_sitter_go",
      "type": "static_library",
      "sources": [
        "<(tree_sitter_dir)/vendor/tree-sitter/lib/src/lib.c",
        "<(tree_sitter_go_dir)/src/parser.c"
      ],
      "include_dirs": [
        "<(tree_sitter_dir)/vendor/tree-sitter/lib/src",
        "<(tree_sitter_dir)/vendor/tree-sitter/lib/include",
        "<(tree_sitter_go_dir)/src"
      ],
      "defines": ["_POSIX_C_SOURCE=200112L", "_DEFAULT_SOURCE"],
      "cflags_c": ["-std=c11"],
      "xcode_settings": {"OTHER_CFLAGS": ["-std=c11"]}
    }
  ]
}
