package term

import (
	"strings"
	"testing"
)

// TestHistoryLine: every entry is stored on one line, and what is read
// back at the prompt (LineBreak a line break again) is the entry, or the
// same command printed on one line; secrets are not stored at all.
func TestHistoryLine(t *testing.T) {
	tests := []struct{ entry, want string }{
		{"SET k v\n", "SET k v"},
		{"EVAL \\\n  \"return 1\" \\\n  0\n", `EVAL "return 1" 0`},
		{"if true; then\n  echo yes\nfi\n", "if true; then echo yes; fi"},
		{"EVAL \"local n = redis.call('INCR', KEYS[1])\n-- a comment\nreturn n\" 1 c\n",
			"EVAL \"local n = redis.call('INCR', KEYS[1])↵-- a comment↵return n\" 1 c"},
		{"SET k 'a \\\nb'\n", "SET k 'a \\↵b'"},                 // inside single quotes, \ and the line break are data
		{"SET k \"unclosed\nfi fi\n", "SET k \"unclosed↵fi fi"}, // a syntax error: kept as typed
	}
	for _, tt := range tests {
		got, ok := HistoryLine(tt.entry)
		if !ok || got != tt.want {
			t.Errorf("HistoryLine(%q) = %q, %v; want %q, true", tt.entry, got, ok, tt.want)
		}
		if strings.Contains(got, "\n") {
			t.Errorf("HistoryLine(%q) = %q: more than one line", tt.entry, got)
		}
	}
	for _, secret := range []string{"AUTH pw", "HELLO 3 AUTH u pw", "redis-cli -a pw PING", "EVAL \"x\n\" 0 redis://u:pw@h"} {
		if got, ok := HistoryLine(secret); ok {
			t.Errorf("HistoryLine(%q) = %q, true; want it kept out", secret, got)
		}
	}
}

// TestHistoryLineFirstLook: the text's first look (for entries that sent
// nothing: a syntax error, a refused flag) sees through quotes,
// backslashes and the shell's operators, and leaves ordinary entries be.
func TestHistoryLineFirstLook(t *testing.T) {
	secrets := []string{
		"PING;AUTH pw", "x=$(AUTH pw)", `A\UTH pw`, "AU''TH pw", `AU""TH pw`, "true&&AUTH pw", "a=AUTH; $a pw",
		"CONFIG SET tls-key-file-pass pw", "config set TLS-CLIENT-KEY-FILE-PASS pw", "ACL SETUSER u on >pw",
		"redis-cli -apw PING", "redis-cli -h h -apw PING", "redis-cli --pass=pw PING", "AUTH pw; fi",
		"docker exec redis-lesson redis-cli -u redis://u:pw@h:1 PING",
	}
	for _, entry := range secrets {
		if got, ok := HistoryLine(entry); ok {
			t.Errorf("HistoryLine(%q) = %q, true; want it kept out", entry, got)
		}
	}
	for _, entry := range []string{"SET author x", "GET k-auth", "SET k password1", "LRANGE k 0 -1", "redis-cli PING", "echo -n x"} {
		if got, ok := HistoryLine(entry); !ok || got != entry {
			t.Errorf("HistoryLine(%q) = %q, %v; want it kept as typed", entry, got, ok)
		}
	}
}
