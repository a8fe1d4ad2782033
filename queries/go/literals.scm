; literals.scm — function literals (closures) and composite literals.
; grammar: tree-sitter-go 0.25
; captures:
;   @definition.closure   func_literal: named `<enclosing>$N` in source order, as go/ssa does
;   @reference.composite  composite_literal: keyed fields (and a named type's unkeyed ones, in order)
;                         feed function values and interface ranking
(func_literal) @definition.closure
(composite_literal body: (literal_value (keyed_element))) @reference.composite
(composite_literal body: (literal_value (literal_element))) @reference.composite
