; jumps.scm — statements that leave the straight line of a block, so an assignment after them in
; the block need not run after one before them (`x = a; if c { break }; x = b`), and the case
; clause that ends in `fallthrough`, whose assignments reach the next clause. Read by their span
; only, never walked.
; grammar: tree-sitter-go 0.25
; captures:
;   @jump   a break, continue, goto or fallthrough statement
(break_statement) @jump
(continue_statement) @jump
(goto_statement) @jump
(fallthrough_statement) @jump
