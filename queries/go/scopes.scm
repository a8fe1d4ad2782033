; scopes.scm — where a local variable stops being in scope: the innermost block, statement with
; a header (`if x := f(); ...`, `for k, v := range m`, `switch v := x.(type)`) or case clause
; around its declaration. Read by their span only, never walked.
; grammar: tree-sitter-go 0.25
; captures:
;   @scope   every node that opens a scope for the locals declared in it
(block) @scope
(if_statement) @scope
(for_statement) @scope
(expression_switch_statement) @scope
(type_switch_statement) @scope
(select_statement) @scope
(expression_case) @scope
(default_case) @scope
(type_case) @scope
(communication_case) @scope
