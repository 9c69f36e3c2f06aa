package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The house's rules (docs/architecture.md), read from the import graph as
// the go command reports it, not from the code's own account of itself.
// Each rule names a package (and everything under it) and the wings it
// may not reach, directly or through another package.
var houseRules = []struct {
	pkg, why  string
	forbidden []string
}{
	{"repl/lang", "the language (the shell, jobs, the word kernel) knows no lock and no feature: features install their words, and the lab observes the runs (words.Observer)",
		[]string{"repl/lab", "repl/explore", "repl/app", "repl/term"}},
	{"repl/cli", "the redis-cli stand-in never imports the lab, the language or explore",
		[]string{"repl/lab", "repl/explore", "repl/lang", "repl/app", "repl/term"}},
	{"repl/lab", "the lab does not reach explore, the shell or the program", []string{"repl/explore", "repl/lang/shell", "repl/app", "repl/term"}},
	{"repl/term", "the terminal reads lines: it runs nothing", []string{"repl/lang/shell", "repl/explore", "repl/app"}},
}

const module = "github.com/locklab/locklab/"

func TestHouseRules(t *testing.T) {
	for _, r := range houseRules {
		for pkg, deps := range depsUnder(t, r.pkg) {
			for _, dep := range deps {
				for _, wing := range r.forbidden {
					if under(dep, wing) && !under(pkg, wing) {
						t.Errorf("%s imports %s (directly or not): %s", pkg, dep, r.why)
					}
				}
			}
		}
	}
}

// depsUnder is, for each package at or under dir, the module's packages
// it imports, directly or not (without the module's prefix).
func depsUnder(t *testing.T, dir string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", "./"+dir+"/...").Output()
	if err != nil {
		t.Fatalf("go list ./%s/...: %v", dir, err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		graph[pkg] = nil
		for _, dep := range fields[1:] {
			if rest, ok := strings.CutPrefix(dep, module); ok {
				graph[pkg] = append(graph[pkg], rest)
			}
		}
	}
	if len(graph) == 0 {
		t.Fatalf("no package under %s", dir)
	}
	return graph
}

// under reports whether pkg is dir or a package below it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }
