package testreport

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// Human writes one line per lab and the summary: what a person reads at
// a terminal. verbose adds every lab's transcript; a failed or broken
// lab's is shown whatever verbose says, indented under its line.
func Human(w io.Writer, results []Result, elapsed time.Duration, verbose bool) {
	for _, r := range results {
		line := fmt.Sprintf("%-5s %s (%s, %.2fs)", r.Status, r.File, r.Mode, r.Elapsed.Seconds())
		if r.Problem != "" {
			line += "\n      " + r.Problem
		}
		fmt.Fprintln(w, line)
		fmt.Fprint(w, indent(r.Updated, "      "))
		if verbose || r.Status != Pass && r.Problem == "" {
			fmt.Fprint(w, indent(r.Output, "      | "))
		}
	}
	fmt.Fprintf(w, "%s (%d labs in %.2fs)\n", Count(results), len(results), elapsed.Seconds())
}

// TAP writes the results as TAP version 13, a lab a test point, with a
// YAML block that says why one failed.
func TAP(w io.Writer, results []Result) {
	fmt.Fprintf(w, "TAP version 13\n1..%d\n", len(results))
	for i, r := range results {
		ok := "ok"
		if r.Status != Pass {
			ok = "not ok"
		}
		fmt.Fprintf(w, "%s %d - %s\n", ok, i+1, tapText(r.File))
		if r.Status != Pass {
			fmt.Fprintf(w, "  ---\n  status: %s\n  message: %s\n  mode: %s\n  ...\n", r.Status, yamlString(r.Problem), yamlString(r.Mode))
		}
	}
}

// tapText keeps a description on its line and free of TAP's directive
// mark.
func tapText(s string) string { return strings.NewReplacer("#", `\#`, "\n", " ").Replace(s) }

func yamlString(s string) string {
	b, _ := json.Marshal(s) // a JSON string is a YAML flow scalar
	return string(b)
}

type junitSuites struct {
	XMLName xml.Name   `xml:"testsuites"`
	Suites  []junitRun `xml:"testsuite"`
}

type junitRun struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// JUnit writes the results as JUnit XML, one testcase a lab, with its
// transcript.
func JUnit(w io.Writer, results []Result, elapsed time.Duration) error {
	c := Count(results)
	run := junitRun{Name: "locklab", Tests: len(results), Failures: c.Failed, Errors: c.Errors, Time: seconds(elapsed)}
	for _, r := range results {
		tc := junitCase{Name: r.File, Classname: "locklab." + r.Mode, Time: seconds(r.Elapsed), SystemOut: xmlSafe(r.Output)}
		problem := &junitProblem{Message: xmlSafe(r.Problem), Text: xmlSafe(r.Output)}
		switch r.Status {
		case Fail:
			tc.Failure = problem
		case Error:
			tc.Error = problem
		}
		run.Cases = append(run.Cases, tc)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Suites: []junitRun{run}}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// xmlSafe drops what XML 1.0 cannot hold at all (control characters but
// tab and newline): a transcript may carry a value's escape sequences.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, s)
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

type jsonResult struct {
	File    string  `json:"file"`
	Mode    string  `json:"mode"`
	Status  string  `json:"status"`
	Problem string  `json:"problem,omitempty"`
	Seconds float64 `json:"seconds"`
}

// JSON writes the results and counts as one JSON object.
func JSON(w io.Writer, results []Result, elapsed time.Duration) error {
	out := struct {
		Results []jsonResult `json:"results"`
		Passed  int          `json:"passed"`
		Failed  int          `json:"failed"`
		Errors  int          `json:"errors"`
		Seconds float64      `json:"seconds"`
	}{Results: []jsonResult{}, Seconds: elapsed.Seconds()}
	c := Count(results)
	out.Passed, out.Failed, out.Errors = c.Passed, c.Failed, c.Errors
	for _, r := range results {
		out.Results = append(out.Results, jsonResult{r.File, r.Mode, strings.ToLower(r.Status.String()), r.Problem, r.Elapsed.Seconds()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix) + "\n"
}
