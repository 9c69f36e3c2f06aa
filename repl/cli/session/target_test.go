package session

import "testing"

func TestOnThisMachine(t *testing.T) {
	for target, want := range map[Target]bool{
		{Network: "tcp", Addr: "127.0.0.1:6379"}:              true,
		{Network: "tcp", Addr: "127.0.0.2:6379"}:              true,
		{Network: "tcp", Addr: "[::1]:6379"}:                  true,
		{Network: "tcp", Addr: "localhost:6380"}:              true,
		{Network: "unix", Addr: "/tmp/redis.sock"}:            true,
		{Network: "tcp", Addr: "127.0.0.1:1", Embedded: true}: true,
		{Network: "tcp", Addr: "10.0.0.5:6379"}:               false,
		{Network: "tcp", Addr: "redis.example.com:6379"}:      false,
		{Network: "tcp", Addr: "no-port"}:                     false,
	} {
		if got := target.OnThisMachine(); got != want {
			t.Errorf("%s %s: OnThisMachine() = %v, want %v", target.Network, target.Addr, got, want)
		}
	}
}
