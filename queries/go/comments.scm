; comments.scm — build constraints (`//go:build`, `// +build`) at file level.
; grammar: tree-sitter-go 0.25
; captures:
;   @comment.build  a top-level comment; the extractor keeps only build constraints before `package`
(source_file (comment) @comment.build)
