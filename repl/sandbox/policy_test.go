package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHostTable: the table names clean absolute paths; nothing in it is
// written but /dev/null, nothing run (only redis-server is, a Run row),
// and no folder in it holds what a lab must never reach (home folders,
// private keys, other processes' /proc entries).
func TestHostTable(t *testing.T) {
	never := []string{"/", "/etc", "/etc/ssl", "/etc/pki", "/proc", "/home", "/root", "/usr", "/var", "/tmp", "/dev"}
	for _, r := range host {
		if !filepath.IsAbs(r.Path) || filepath.Clean(r.Path) != r.Path {
			t.Errorf("%s: not a clean absolute path", r.Path)
		}
		if r.Access != Read && r.Path != "/dev/null" {
			t.Errorf("%s: %s, not read", r.Path, r.Access)
		}
		if slices.Contains(never, r.Path) || r.Why == "" {
			t.Errorf("%s (%s): too wide, or no reason given", r.Path, r.Why)
		}
	}
}

// TestFor: the start folder is read, and written only at the REPL; a
// script's folder is read; an output is the file when it is there, else
// its folder (to make it in), relative names from the working folder;
// rules of empty fields are dropped.
func TestFor(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("old.svg", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := Run{StartDir: dir, Scripts: []string{"/s/x.lab"}, Outputs: []string{"old.svg", "new.svg"}, TempDir: "/tmp"}
	got := rulesOf(For(run), dir, "/s", "/tmp")
	want := []string{"read " + dir, "read /s", "create+write " + dir + "/old.svg", "create+write " + dir, "read-write /tmp"}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("no %q in %q", w, got)
		}
	}
	run.Interactive = true
	if got := rulesOf(For(run), dir); !slices.Contains(got, "read-write "+dir) {
		t.Errorf("at the REPL the start folder is written: %q", got)
	}
	for _, r := range For(Run{}) {
		if r.Path == "" {
			t.Errorf("a rule for an empty field: %v", r)
		}
	}
}

// rulesOf are the rules of p under the prefixes, as "ACCESS PATH".
func rulesOf(p Policy, prefixes ...string) []string {
	var out []string
	for _, r := range p {
		for _, pre := range prefixes {
			if strings.HasPrefix(r.Path, pre) {
				out = append(out, r.Access.String()+" "+r.Path)
				break
			}
		}
	}
	return out
}

// TestProgramRules: a program is run with the dynamic loader its ELF
// header names (here /bin/sh's, where the host has one).
func TestProgramRules(t *testing.T) {
	p := programRules("/bin/sh")
	if len(p) == 0 {
		t.Skip("no /bin/sh")
	}
	real, _ := filepath.EvalSymlinks("/bin/sh")
	if p[0] != (Rule{real, ReadExec, p[0].Why}) {
		t.Errorf("first rule %v, want read+exec %s", p[0], real)
	}
	i := slices.IndexFunc(p, func(r Rule) bool { return strings.Contains(r.Why, "dynamic loader") })
	if i < 0 || p[i].Access != ReadExec || !filepath.IsAbs(p[i].Path) {
		t.Errorf("no loader for a dynamic /bin/sh in %v", p)
	}
}

// TestStatus: the one-line statuses tests and the report read.
func TestStatus(t *testing.T) {
	on := Status{ABI: 7, Enforced: true, Rules: Policy{{"/x", Read, "why"}}}
	if got := on.String(); got != "Landlock: enforced (ABI 7), 1 rules" {
		t.Errorf("enforced: %q", got)
	}
	if got := on.Report(); !strings.Contains(got, "\n  read         /x (why)\n") {
		t.Errorf("report: %q", got)
	}
	t.Setenv(EnvOff, "1")
	st, err := Apply(Run{})
	if err != nil || st.Enforced || st.String() != "Landlock: not enforced: LOCKLAB_NO_LANDLOCK is set" {
		t.Errorf("off: %v, %v", st, err)
	}
}
