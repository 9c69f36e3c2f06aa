package server

import (
	"strings"
	"testing"
)

// FuzzLuaCode: blanking a chunk's strings and comments never panics,
// never adds a name that was not in the chunk, and leaves a chunk with
// neither as it is.
func FuzzLuaCode(f *testing.F) {
	for _, seed := range []string{"return 1", "-- c\nreturn 'a'", "--[==[ x ]==] return [[y]]", `return "a\"b"`, "[=", "'", "--[[", "x[1]"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		code := luaCode(src)
		if name := hostReaching().FindString(code); name != "" && !strings.Contains(src, name) {
			t.Errorf("luaCode(%q) = %q names %q, which the chunk does not", src, code, name)
		}
		if !strings.ContainsAny(src, "-'\"[") && code != src {
			t.Errorf("luaCode(%q) = %q, want it unchanged", src, code)
		}
	})
}
