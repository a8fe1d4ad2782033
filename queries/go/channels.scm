; channels.scm — channel hand-offs: what is sent on a channel reaches what receives from it.
; grammar: tree-sitter-go 0.25
; captures:
;   @reference.send     send_statement `ch <- v` (also as a `select` case)
;   @reference.receive  unary_expression `<-ch` (in any expression, a `select` case included)
(send_statement) @reference.send
(unary_expression operator: "<-") @reference.receive
