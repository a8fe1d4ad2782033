; imports.scm — import specs with their optional alias.
; grammar: tree-sitter-go 0.25
; captures:
;   @reference.import  import_spec (name: package_identifier | dot | blank_identifier, path)
;   @package           the package clause's name
(import_spec) @reference.import
(package_clause (package_identifier) @package)
