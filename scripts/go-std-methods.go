// Command go-std-methods writes rules/go-std-methods.json: the exported method set of every
// exported type of the Go standard library (of *T for a concrete type, promoted methods included),
// keyed "pkg.Type", and the names of those that are interfaces. The standard library is not
// indexed, so the resolver reads this table to know what a type that embeds one of them (a struct
// embedding net.Listener) can be called with, and whose method such a call is.
//
//	go run scripts/go-std-methods.go > rules/go-std-methods.json
package main

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
)

func main() {
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		panic(err)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	table := map[string][]string{}
	// For a concrete type, the methods not declared on *T itself: the symbol of the method a call
	// reaches, as go/ssa names it: (time.Time).Add, or (*bufio.Writer).Flush promoted into
	// bufio.ReadWriter. A method missing here is (*T).Name.
	declared := map[string]map[string]string{}
	var interfaces []string
	for _, path := range strings.Fields(string(out)) {
		if strings.Contains(path, "internal") || strings.HasPrefix(path, "vendor/") || strings.HasPrefix(path, "cmd/") {
			continue
		}
		pkg, err := imp.Import(path)
		if err != nil {
			continue
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			if !ast.IsExported(name) {
				continue
			}
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			var ms *types.MethodSet
			if types.IsInterface(tn.Type()) {
				ms = types.NewMethodSet(tn.Type())
				interfaces = append(interfaces, path+"."+name)
			} else {
				ms = types.NewMethodSet(types.NewPointer(tn.Type()))
			}
			var names []string
			for i := 0; i < ms.Len(); i++ {
				m := ms.At(i).Obj()
				if !m.Exported() {
					continue
				}
				names = append(names, m.Name())
				if types.IsInterface(tn.Type()) {
					continue
				}
				recv := m.Type().(*types.Signature).Recv().Type()
				symbol := "(" + types.TypeString(recv, nil) + ")." + m.Name()
				if symbol != "(*"+path+"."+name+")."+m.Name() {
					if declared[path+"."+name] == nil {
						declared[path+"."+name] = map[string]string{}
					}
					declared[path+"."+name][m.Name()] = symbol
				}
			}
			if len(names) == 0 {
				continue
			}
			sort.Strings(names)
			table[path+"."+name] = names
		}
	}
	sort.Strings(interfaces)
	doc := map[string]any{
		"_comment":   "Exported method sets of the Go standard library's exported types (of *T for a concrete type, promoted methods included), by package path and type name, and which of them are interfaces. The standard library is not indexed: a type that embeds one of these (tcpProxySocket embeds net.Listener) has its methods, so it can implement an interface whose methods it does not declare, and a call of one (a struct's embedded sync.RWMutex's Lock) names its callee: (*T).Name, or the symbol under declared when the method is not declared on *T itself ((time.Time).Add; (*bufio.Writer).Flush promoted into bufio.ReadWriter). Made with `go run scripts/go-std-methods.go > rules/go-std-methods.json` (Go " + strings.TrimPrefix(runtime.Version(), "go") + ").",
		"go":         strings.TrimPrefix(runtime.Version(), "go"),
		"types":      table,
		"declared":   declared,
		"interfaces": interfaces,
	}
	if err := json.NewEncoder(os.Stdout).Encode(doc); err != nil {
		panic(err)
	}
}
