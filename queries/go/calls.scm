; calls.scm — every call site, and which of them a `go` or `defer` statement starts.
; grammar: tree-sitter-go 0.25
; captures:
;   @reference.call        call_expression (function, type_arguments?, arguments); and
;                          type_conversion_expression to a generic_type (`F[T](x)` parses as one)
;   @reference.call.go     the call of a `go` statement (also captured as @reference.call)
;   @reference.call.defer  the call of a `defer` statement (also captured as @reference.call)
(go_statement (call_expression) @reference.call.go)
(defer_statement (call_expression) @reference.call.defer)
(call_expression) @reference.call
(go_statement (type_conversion_expression type: (generic_type)) @reference.call.go)
(defer_statement (type_conversion_expression type: (generic_type)) @reference.call.defer)
(type_conversion_expression type: (generic_type)) @reference.call
