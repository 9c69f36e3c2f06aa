package cliflags

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		args []string
		rest []string
		want func(o *Options) bool
	}{
		{[]string{"-h", "db.local", "-p", "6380", "GET", "k"}, []string{"GET", "k"},
			func(o *Options) bool { return o.Host == "db.local" && o.Port == 6380 && o.Set["host"] && o.Set["port"] }},
		{[]string{"-n", "2", "--raw", "-3", "PING"}, []string{"PING"},
			func(o *Options) bool { return o.DB == 2 && o.Output == OutputRaw && o.RESP3 }},
		{[]string{"--no-raw", "-e", "-r", "3", "-i", "0.5", "INCR", "c"}, []string{"INCR", "c"},
			func(o *Options) bool {
				return o.Output == OutputTTY && o.ExitOnError && o.Repeat == 3 && o.Interval == 500*time.Millisecond
			}},
		{[]string{"-a", "s3cret", "--user", "bob", "SET", "k", "-1"}, []string{"SET", "k", "-1"},
			func(o *Options) bool { return o.Password == "s3cret" && o.User == "bob" }},
		{[]string{"-u", "rediss://alice:pw@example.com:6390/4", "GET", "k"}, []string{"GET", "k"},
			func(o *Options) bool {
				return o.TLS && o.Host == "example.com" && o.Port == 6390 && o.User == "alice" && o.Password == "pw" && o.DB == 4
			}},
		{[]string{"--", "-weird"}, []string{"-weird"}, func(o *Options) bool { return true }},
		{[]string{"-1"}, []string{"-1"}, func(o *Options) bool { return true }},
	}
	for _, tt := range tests {
		var o Options
		rest, err := Parse(&o, tt.args)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.args, err)
			continue
		}
		if !reflect.DeepEqual(rest, tt.rest) || !tt.want(&o) {
			t.Errorf("Parse(%q) = %q, %+v", tt.args, rest, o)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--foo", "GET"}, "Unrecognized option or bad number of args for: '--foo'"},
		{[]string{"-p"}, "Unrecognized option or bad number of args for: '-p'"},
		{[]string{"-p", "x", "GET"}, "Unrecognized option or bad number of args for: '-p'"},
		{[]string{"--csv", "GET"}, "not supported here"},
		{[]string{"-u", "redis://user:hunter2@[::1", "GET"}, "Invalid URI"},
		{[]string{"-u", "http://user:hunter2@host", "GET"}, "Invalid URI"},
		{[]string{"-ahunter2", "GET"}, "Unrecognized option or bad number of args for: '-a...'"}, // refused, as redis-cli does
		{[]string{"--pass=hunter2", "GET"}, "'--pass=...'"},
	}
	for _, tt := range tests {
		var o Options
		_, err := Parse(&o, tt.args)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", tt.args, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Parse(%q) error leaks the password: %v", tt.args, err)
		}
	}
}
