; definitions.scm — declarations that get a symbol.
; grammar: tree-sitter-go 0.25
; captures:
;   @definition.function  function_declaration (name, type_parameters, parameters, result, body)
;   @definition.method    method_declaration (receiver, name, parameters, result, body)
;   @definition.type      type_spec / type_alias (a struct, interface, function type or named type)
;   @definition.var       var_spec (package level, or a local `var` inside a body)
;   @definition.const     const_spec
(function_declaration) @definition.function
(method_declaration) @definition.method
(type_spec) @definition.type
(type_alias) @definition.type
(var_spec) @definition.var
(const_spec) @definition.const
