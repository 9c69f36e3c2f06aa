package testreport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/app/testreport"
	"github.com/locklab/locklab/repl/cli/redistest"
)

// sample is a run with each outcome, and the characters that break
// careless reports: TAP's '#', a newline, XML's markup and a control
// character from a value a lab printed.
func sample() []testreport.Result {
	return []testreport.Result{
		{File: "labs/ok.lab", Mode: "one run", Status: testreport.Pass, Output: "all 2 expectations held\n", Elapsed: 300 * time.Millisecond},
		{File: "labs/#1 <fail>.lab", Mode: "every order", Status: testreport.Fail,
			Problem: `labs/#1 <fail>.lab:3:1: expected GET k == "v", got "w"`, Output: "x\x1b]0;pwned\a & <y>\n", Elapsed: time.Second},
		{File: "labs/broken.lab", Mode: "one run", Status: testreport.Error, Problem: "exit status 2: labs/broken.lab:1:5: reached EOF without closing quote '\"'"},
	}
}

// TestTAPParsesWithNodeTap reads --tap's output with node-tap's own
// parser (strict), not with anything of locklab's.
func TestTAPParsesWithNodeTap(t *testing.T) {
	var tap bytes.Buffer
	testreport.TAP(&tap, sample())
	got := parseTAP(t, tap.Bytes())
	if got.Result.Ok || got.Result.Count != 3 || got.Result.Pass != 1 || got.Result.Fail != 2 || got.Result.Plan.End != 3 {
		t.Fatalf("tap-parser read %+v from:\n%s", got.Result, tap.String())
	}
	want := []string{"labs/ok.lab", "labs/#1 <fail>.lab", "labs/broken.lab"}
	for i, p := range got.Points {
		if p.Name != want[i] || p.ID != i+1 || p.Ok != (i == 0) {
			t.Errorf("point %d: %+v, want %q ok=%v", i+1, p, want[i], i == 0)
		}
	}
	if msg, _ := got.Points[1].Diag["message"].(string); !strings.Contains(msg, `expected GET k == "v", got "w"`) {
		t.Errorf("the failure's YAML block reads %v", got.Points[1].Diag)
	}
}

type tapRead struct {
	Result struct {
		Ok                bool
		Count, Pass, Fail int
		Plan              struct{ Start, End int }
	}
	Points []struct {
		Ok   bool
		ID   int
		Name string
		Diag map[string]any
	}
}

func parseTAP(t *testing.T, tap []byte) tapRead {
	node := redistest.NeedProgram(t, "node")
	npm := redistest.NeedProgram(t, "npm")
	dir := "testdata/tap-check"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := os.Stat(dir + "/node_modules/tap-parser"); err != nil {
		cmd := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	cmd := exec.CommandContext(ctx, node, "check.mjs")
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(tap)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node check.mjs: %v", err)
	}
	var got tapRead
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("check.mjs printed %s: %v", out, err)
	}
	return got
}

// TestJUnitIsWellFormed reads --junit's file back with the standard
// library's XML parser, into JUnit's shape as CI servers read it.
func TestJUnitIsWellFormed(t *testing.T) {
	var b bytes.Buffer
	if err := testreport.JUnit(&b, sample(), 2*time.Second); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Errors   int `xml:"errors,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				Error *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	s := doc.Suites[0]
	if len(doc.Suites) != 1 || s.Tests != 3 || s.Failures != 1 || s.Errors != 1 || len(s.Cases) != 3 {
		t.Fatalf("read back %+v", doc)
	}
	if c := s.Cases[1]; c.Name != "labs/#1 <fail>.lab" || c.Failure == nil || !strings.Contains(c.Failure.Message, `got "w"`) {
		t.Errorf("the failed case reads %+v", c)
	}
	if s.Cases[2].Error == nil || s.Cases[0].Failure != nil {
		t.Errorf("outcomes read back wrong: %+v", s.Cases)
	}
}

// TestJSONCounts reads --json back.
func TestJSONCounts(t *testing.T) {
	var b bytes.Buffer
	if err := testreport.JSON(&b, sample(), time.Second); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Results                []struct{ File, Status, Problem string }
		Passed, Failed, Errors int
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Passed != 1 || got.Failed != 1 || got.Errors != 1 || got.Results[1].Status != "fail" || got.Results[2].Status != "error" {
		t.Errorf("read back %+v", got)
	}
}

func TestFirstFailure(t *testing.T) {
	out := "OK\nscripts/x.lab:16:1: expected LLEN b == 2, got 1\nscripts/x.lab:17:1: expected verdict x, got y\n"
	if got := testreport.FirstFailure(out); got != "scripts/x.lab:16:1: expected LLEN b == 2, got 1" {
		t.Errorf("FirstFailure = %q", got)
	}
	if got := testreport.FirstFailure("all 3 expectations held\n"); got != "" {
		t.Errorf("FirstFailure of a passing run = %q", got)
	}
}
