package session

import (
	"reflect"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"AUTH", "hunter2"}, []string{"AUTH", hidden}},
		{[]string{"auth", "bob", "hunter2"}, []string{"auth", hidden, hidden}},
		{[]string{"HELLO", "3", "AUTH", "bob", "hunter2", "SETNAME", "x"}, []string{"HELLO", "3", "AUTH", "bob", hidden, "SETNAME", "x"}},
		{[]string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH", "hunter2"}, []string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH", hidden}},
		{[]string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH2", "bob", "hunter2"}, []string{"MIGRATE", "h", "1", "k", "0", "5", "AUTH2", "bob", hidden}},
		{[]string{"CONFIG", "SET", "requirepass", "hunter2"}, []string{"CONFIG", "SET", "requirepass", hidden}},
		{[]string{"ACL", "SETUSER", "bob", "on", ">hunter2", "~*"}, []string{"ACL", "SETUSER", "bob", "on", ">" + hidden, "~*"}},
		{[]string{"SET", "k", "hunter2"}, []string{"SET", "k", "hunter2"}}, // data, not a secret
		{[]string{}, []string{}},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
