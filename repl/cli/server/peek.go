package server

import (
	"time"

	"github.com/locklab/locklab/repl/clock"
)

// KeyState is a key as the embedded server holds it, read directly.
type KeyState struct {
	Exists bool
	Type   string        // "string", "list" ... ("" when it does not exist)
	Value  string        // a string's value
	TTL    time.Duration // the time it has left to live (0: no expiry)
	Len    int64         // a list's length
}

// Peek reads key in database 0 as the server holds it at its clock's
// time now, outside every connection: no command is sent, so no client,
// probe or scheduler sees it. It moves the server's time to the clock's,
// as the next command would, so that a key whose TTL has run out is
// gone. Call it only while no command runs (explore's oracle calls it
// between steps).
func (e *Embedded) Peek(key string) KeyState {
	if _, real := e.clock.(clock.Real); !real {
		e.m.SetTime(e.clock.Now())
	}
	db := e.m.DB(0) // expires what the time has run out
	if !db.Exists(key) {
		return KeyState{}
	}
	st := KeyState{Exists: true, Type: db.Type(key), TTL: db.TTL(key)}
	switch st.Type {
	case "string":
		st.Value, _ = db.Get(key)
	case "list":
		l, _ := db.List(key)
		st.Len = int64(len(l))
	}
	return st
}
