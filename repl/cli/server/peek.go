package server

import "time"

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
	e.catchUp()
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

// Expiry is the key whose time to live runs out first, in any database,
// as the embedded server holds it at its clock's time now (see Peek).
type Expiry struct {
	Key  string
	DB   int
	Left time.Duration // the time it has left to live (> 0)
}

// NextExpiry is the key whose TTL runs out first (the first by database,
// then name, of those that run out together); ok is false when no key
// has a TTL. Like Peek, it sends no command: call it only while no
// command runs (explore's faults offer time running on to it).
func (e *Embedded) NextExpiry() (next Expiry, ok bool) {
	e.catchUp()
	for i := range databases {
		db := e.m.DB(i) // expires what the time has run out
		for _, k := range db.Keys() {
			if left := db.TTL(k); left > 0 && (!ok || left < next.Left) {
				next, ok = Expiry{Key: k, DB: i, Left: left}, true
			}
		}
	}
	return next, ok
}

// databases is how many databases the embedded server has (miniredis's,
// as Redis's default).
const databases = 16

// catchUp moves the server's time to its clock's, as the next command
// would (followClock), for a look that sends none: a key whose TTL has run
// out is gone.
func (e *Embedded) catchUp() {
	e.followClock()
}
