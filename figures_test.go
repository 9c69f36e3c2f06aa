package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHouseFigures prints the figures docs/architecture.md quotes about
// the code's shape, from the go command's own account of the packages:
//
//	go test -run TestHouseFigures -v .
//
// LOCKLAB_FIGURES_DIR=DIR measures the module in DIR instead (an older
// tree, unpacked with git archive). It checks nothing: the rules are
// arch_test.go's.
func TestHouseFigures(t *testing.T) {
	dir := cmp.Or(os.Getenv("LOCKLAB_FIGURES_DIR"), ".")
	pkgs := modulePackages(t, dir)
	f := measure(pkgs)
	t.Logf("packages: %d (%d under repl/)", f.packages, f.underRepl)
	t.Logf("import levels (the longest chain of the module's packages, main.go's included): %d: %s", len(f.chain), strings.Join(f.chain, " -> "))
	t.Logf("non-test Go lines: %d; the largest package: %s, %d lines in %d files", f.lines, f.largest.path, f.largest.lines, f.largest.files)
	t.Logf("the most imported: %s, by %d of the module's packages", f.mostImported, f.mostImportedBy)
	t.Logf("the most importing: %s, %d of the module's packages", f.mostImporting, f.mostImportingN)
	t.Logf("packages with a single importer: %d %v", len(f.singleImporter), f.singleImporter)
}

// pkg is one of the module's packages: its path without the module's
// prefix ("." for main), what it imports of the module, its size.
type pkg struct {
	path         string
	imports      []string
	lines, files int
}

func modulePackages(t *testing.T, dir string) map[string]*pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .GoFiles \" \"}}|{{join .Imports \" \"}}", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./... in %s: %v", dir, err)
	}
	pkgs := map[string]*pkg{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "|", 4)
		p := &pkg{path: short(parts[0])}
		for _, f := range strings.Fields(parts[2]) {
			data, err := os.ReadFile(filepath.Join(parts[1], f))
			if err != nil {
				t.Fatal(err)
			}
			p.lines += bytes.Count(data, []byte("\n"))
			p.files++
		}
		for _, imp := range strings.Fields(parts[3]) {
			if imp == modulePath || strings.HasPrefix(imp, modulePath+"/") {
				p.imports = append(p.imports, short(imp))
			}
		}
		pkgs[p.path] = p
	}
	return pkgs
}

const modulePath = "github.com/locklab/locklab"

func short(importPath string) string {
	if importPath == modulePath {
		return "."
	}
	return strings.TrimPrefix(importPath, modulePath+"/")
}

type figures struct {
	packages, underRepl, lines     int
	chain                          []string
	largest                        pkg
	mostImported, mostImporting    string
	mostImportedBy, mostImportingN int
	singleImporter                 []string
}

func measure(pkgs map[string]*pkg) figures {
	var f figures
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range pkgs {
			if !yield(name) {
				return
			}
		}
	})
	importers := map[string][]string{}
	for _, name := range names {
		p := pkgs[name]
		f.packages++
		if strings.HasPrefix(name, "repl/") {
			f.underRepl++
		}
		f.lines += p.lines
		if p.lines > f.largest.lines {
			f.largest = *p
		}
		if len(p.imports) > f.mostImportingN {
			f.mostImporting, f.mostImportingN = name, len(p.imports)
		}
		for _, imp := range p.imports {
			importers[imp] = append(importers[imp], name)
		}
	}
	for _, name := range names {
		if n := len(importers[name]); n > f.mostImportedBy {
			f.mostImported, f.mostImportedBy = name, n
		}
		if len(importers[name]) == 1 {
			f.singleImporter = append(f.singleImporter, name)
		}
	}
	// The longest chain: the import graph has no cycles (Go forbids them).
	longest := map[string][]string{}
	var chain func(string) []string
	chain = func(name string) []string {
		if c, ok := longest[name]; ok {
			return c
		}
		var best []string
		for _, imp := range pkgs[name].imports {
			if c := chain(imp); len(c) > len(best) {
				best = c
			}
		}
		c := append([]string{name}, best...)
		longest[name] = c
		return c
	}
	for _, name := range names {
		if c := chain(name); len(c) > len(f.chain) {
			f.chain = c
		}
	}
	return f
}

func (p pkg) String() string { return fmt.Sprintf("%s (%d lines)", p.path, p.lines) }
