package commute

import "testing"

// TestOnServers: a command sent to a Redlock node touches that node's
// keys alone: the same key on two nodes, or on a node and the lab's own
// server, is two keys, and even commands whose keys cannot be known
// commute across servers; on one node they conflict as on any server. A
// step with no words (a fault: time running on) conflicts with every
// server's.
func TestOnServers(t *testing.T) {
	set := Of([]string{"SET", "lock:x", "t", "NX", "PX", "1000"}, nil)
	get := Of([]string{"GET", "lock:x"}, nil)
	flush := Of([]string{"FLUSHALL"}, nil)
	for _, c := range []struct {
		name string
		a, b Access
		want bool
	}{
		{"same key, two nodes", set.On("A"), set.On("B"), true},
		{"same key, a node and the lab's server", set.On("A"), set, true},
		{"global, two nodes", flush.On("A"), set.On("B"), true},
		{"same key, one node", set.On("A"), get.On("A"), false},
		{"global, one node", flush.On("C"), get.On("C"), false},
		{"same key, the lab's server", set, get, false},
		{"a fault (no words), a node", Of(nil, nil), set.On("A"), false},
		{"a fault (no words), the lab's server", Of(nil, nil), get, false},
	} {
		if got := c.a.Commutes(c.b); got != c.want || c.b.Commutes(c.a) != got {
			t.Errorf("%s: commutes %v, want %v", c.name, got, c.want)
		}
	}
}
