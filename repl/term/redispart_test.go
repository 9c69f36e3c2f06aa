package term

import (
	"slices"
	"testing"
)

func TestRedisPart(t *testing.T) {
	for _, c := range []struct {
		what   string
		fields []string
		want   []string
	}{
		{"@a GET k sends GET k", []string{"@a", "GET", "k"}, []string{"GET", "k"}},
		{"redis-cli -p 1 --raw GET k sends GET k", []string{"redis-cli", "-p", "1", "--raw", "GET", "k"}, []string{"GET", "k"}},
		{"docker exec -it redis-lesson redis-cli GET k sends GET k",
			[]string{"docker", "exec", "-it", "redis-lesson", "redis-cli", "GET", "k"}, []string{"GET", "k"}},
		{"GET k is itself", []string{"GET", "k"}, []string{"GET", "k"}},
	} {
		t.Run(c.what, func(t *testing.T) {
			if got := RedisPart(c.fields); !slices.Equal(got, c.want) {
				t.Errorf("RedisPart(%q) = %q, want %q", c.fields, got, c.want)
			}
		})
	}
}
