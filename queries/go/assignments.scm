; assignments.scm — what flows where, for static types and function values.
; grammar: tree-sitter-go 0.25
; captures:
;   @local.short        short_var_declaration `a, b := ...`
;   @local.range        range_clause `for k, v := range x`
;   @local.typeswitch   type_switch_statement with an alias `switch v := x.(type)`
;   @local.receive      receive_statement of a `select` case `case v, ok := <-ch:` (and `v = <-ch`)
;   @assignment         assignment_statement `x.f = ...`, `v = ...`
;   @reference.return   return_statement (function values and constructor results)
(short_var_declaration) @local.short
(range_clause) @local.range
(type_switch_statement alias: (_)) @local.typeswitch
(receive_statement left: (_)) @local.receive
(assignment_statement) @assignment
(return_statement) @reference.return
