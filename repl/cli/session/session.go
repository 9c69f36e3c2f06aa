package session

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/resp"
)

// Main is the name of the session the REPL starts in.
const Main = "main"

// Event is one command as it happened: who sent it, what the server
// answered, and when. Err is set instead of Reply when no answer came.
// Probe is what a middleware attached (the lab's lock probe: the keys'
// states around the command); nil when none did.
type Event struct {
	Session    string
	Args       []string
	Reply      resp.Reply
	Err        error
	Start, End time.Time
	Probe      any
}

// Session is a named, dedicated connection and what redis-cli shows about
// it in its prompt.
type Session struct {
	Name string
	set  *Set

	mu         sync.Mutex // guards the fields below
	conn       *Conn      // replaced by Retarget
	inTx       bool
	watching   bool
	connFailed bool
}

// Do sends one command on the session's connection through the set's
// middleware (see Set.Use), records the event and returns it.
func (s *Session) Do(ctx context.Context, args []string) (Event, error) {
	conn := s.connection()
	call := Call{Session: s.Name, Transaction: s.inTxOrWatch() || conn.Unanswered()}
	e, err := s.set.run(ctx, call, conn, args)
	s.trackTx(args, e.Reply, err)
	s.set.record(e)
	return e, err
}

func (s *Session) inTxOrWatch() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inTx || s.watching
}

// DoBatch sends commands in one pipeline (see Conn.DoBatch), records one
// event per command and returns the events of the replies that arrived
// (on a connection error, those before it). The pipeline does not pass
// through the middleware: it is for plain commands, which no middleware
// has anything to do with.
func (s *Session) DoBatch(ctx context.Context, batch [][]string) ([]Event, error) {
	if err := s.set.WaitPaused(ctx, s.Name); err != nil {
		return nil, err
	}
	now := s.set.clock()
	start := now()
	replies, err := s.connection().DoBatch(ctx, batch)
	end := now()
	events := make([]Event, 0, len(replies))
	for i, args := range batch {
		e := Event{Session: s.Name, Args: args, Start: start, End: end}
		if i < len(replies) {
			e.Reply = replies[i]
		} else {
			e.Err = err
		}
		s.trackTx(args, e.Reply, e.Err)
		s.set.record(e)
		if e.Err != nil {
			break
		}
		events = append(events, e)
	}
	return events, err
}

// Streams reports whether args are to be sent with Stream: a command
// after which the server keeps sending (commands.Streams: SUBSCRIBE,
// PSUBSCRIBE, SSUBSCRIBE, MONITOR),
// outside MULTI (where it is queued) and with replies on (else nothing
// comes: Do sends it, and closes the connection after).
func (s *Session) Streams(args []string) bool {
	return commands.Streams(args) && !s.InTx() && !s.connection().Unanswered()
}

// Stream sends args, a command after which the server keeps sending
// (see Streams), and passes each reply that comes to each as an event of
// its own, recorded as Do's are: the command's own reply, then every
// message (whose Start is its arrival), until ctx ends, the connection
// does, an error reply refuses the command, or end is done and the
// messages sent before are passed on. The connection is closed then, and
// the session's next command dials anew (see Conn.Stream). A stream does
// not pass through the middleware: a probe or a gate has nothing to do
// with it.
func (s *Session) Stream(ctx, end context.Context, args []string, each func(Event)) error {
	now := s.set.clock()
	start := now()
	err := s.connection().Stream(ctx, end, args, func(r resp.Reply) {
		e := Event{Session: s.Name, Args: args, Reply: r, Start: start, End: now()}
		start = time.Time{}
		if e.Start.IsZero() {
			e.Start = e.End
		}
		s.set.record(e)
		each(e)
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.connFailed = err != nil && !errors.Is(err, context.Canceled)
	s.inTx, s.watching = false, false // the next connection is in neither
	return err
}

// Lengths asks the server, on a connection of its own whose commands are
// not events, how many elements each list in keys holds: -1 where it did
// not say.
func (s *Session) Lengths(ctx context.Context, keys []string) map[string]int64 {
	out := map[string]int64{}
	if len(keys) == 0 {
		return out
	}
	conn := s.Untraced()
	defer conn.Close()
	for _, k := range keys {
		r, err := conn.Do(ctx, []string{"LLEN", k})
		if err != nil || r.Kind != resp.Int {
			out[k] = -1
			continue
		}
		out[k] = r.Int
	}
	return out
}

// Untraced is a fresh connection with the session's database and
// credentials, whose commands are not events: for checks (expect) that
// must not change what the run shows.
func (s *Session) Untraced() *Conn {
	conn := s.connection()
	t := conn.target // the session's own server (a cluster node, say)
	t.DB = conn.DB()
	t.User, t.Password = conn.credentials()
	return NewConn(t, "")
}

// Target is the server the session talks to now (a cluster node after
// `@NAME on primary`, else the set's).
func (s *Session) Target() Target { return s.connection().target }

// DB is the database the session is on (redis-cli's `[db]`).
func (s *Session) DB() int { return s.connection().DB() }

// connection is the session's connection now (Retarget may replace it).
func (s *Session) connection() *Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

// Connected reports whether the last attempt to reach the server worked
// (redis-cli's prompt says `not connected>` when it did not).
func (s *Session) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.connFailed
}

// Connect makes sure the session's connection is up, without recording an
// event: what redis-cli does when it starts.
func (s *Session) Connect(ctx context.Context) error {
	err := s.connection().Ping(ctx)
	s.mu.Lock()
	s.connFailed = err != nil
	s.mu.Unlock()
	return err
}

// InTx reports whether the session is between MULTI and EXEC/DISCARD.
func (s *Session) InTx() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inTx
}

// trackTx follows MULTI/EXEC/DISCARD the way redis-cli does for its
// `(TX)` prompt; a lost connection ends the transaction too.
func (s *Session) trackTx(args []string, reply resp.Reply, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.connFailed = err != nil && !errors.Is(err, context.Canceled)
	if err != nil {
		s.inTx = false
		return
	}
	// With replies off (resp.None), a command is taken to have worked.
	ok := reply.Kind == resp.None || reply.Kind == resp.Status && reply.Str == "OK"
	switch strings.ToUpper(args[0]) {
	case "MULTI":
		s.inTx = s.inTx || ok
	case "EXEC", "DISCARD":
		s.inTx, s.watching = false, false
	case "WATCH":
		s.watching = s.watching || ok
	case "UNWATCH":
		s.watching = false
	}
}

// Set is the sessions of one locklab run, all talking to one target.
type Set struct {
	Target Target
	// Origin is the target the set began with (the embedded Redis, or
	// the server -h/-p named): `connect` alone goes back to it.
	Origin Target

	// mu guards the fields below. Lock order: a Set's mu, then a
	// Session's, then a Conn's (Close holds the set's while it takes the
	// others; Retarget holds a session's while it closes the old Conn).
	mu          sync.Mutex
	sessions    map[string]*Session
	observer    func(Event)
	pauses      map[string]func(context.Context) error // see Pause
	acted       map[string]bool                        // the sessions that acted (see WaitPaused)
	middlewares []Middleware
	gate        Gate             // see UseGate
	do          Do               // send, wrapped in the middlewares
	now         func() time.Time // the events' clock (nil: the wall clock)
}

// NewSet makes an empty set of sessions for t, with no middleware.
func NewSet(t Target) *Set {
	return &Set{Target: t, Origin: t, sessions: map[string]*Session{}, do: send}
}

// Use adds middlewares to every command of the set's sessions and
// one-shot calls (not to DoBatch): they run in the order given, the first
// outermost, after any added before, and the innermost sends the command.
// Set them up before the first command.
func (s *Set) Use(mw ...Middleware) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.middlewares = append(s.middlewares, mw...)
	s.do = chain(s.middlewares)
}

// SetClock makes the events' times read now (a virtual clock's) instead
// of the wall clock; set it before the first command.
func (s *Set) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// Now is the time events are stamped with (SetClock; the wall clock by
// default): what the lab times on its own connections (Redlock's) reads,
// so that their times and the sessions' order as they went.
func (s *Set) Now() time.Time { return s.clock()() }

// clock is the events' clock.
func (s *Set) clock() func() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.now == nil {
		return time.Now
	}
	return s.now
}

// UseFirst adds a middleware outside every other (a gate: the whole of
// what a command sends is one turn).
func (s *Set) UseFirst(mw Middleware) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.middlewares = append([]Middleware{mw}, s.middlewares...)
	s.do = chain(s.middlewares)
}

// UseGate makes every command of the set's sessions wait for its turn at
// g (GateMiddleware, outside every other middleware), and keeps g for
// what the lab sends on connections of its own (Gate).
func (s *Set) UseGate(g Gate) {
	s.UseFirst(GateMiddleware(g))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gate = g
}

// Gate is the gate UseGate installed, or nil: commands the lab sends on
// connections of its own (Redlock's, to its nodes) take their turns at it
// too (see TurnOn).
func (s *Set) Gate() Gate {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gate
}

// run sends args on c through the middlewares, as call says.
func (s *Set) run(ctx context.Context, call Call, c *Conn, args []string) (Event, error) {
	if err := s.WaitPaused(ctx, call.Session); err != nil {
		return notSent(call.Session, args, err), err
	}
	call.now = s.clock()
	s.mu.Lock()
	do := s.do
	s.mu.Unlock()
	e, err := do(withCall(ctx, call), c, args)
	e.Session = call.Session
	return e, err
}

// MaxSessions bounds how many sessions, each with its connection, a lab
// keeps open: one connection per @NAME or job with no bound exhausted a
// real server's maxclients (10,000 by default), which every other client
// of it then felt.
const MaxSessions = 1000

// ErrTooManySessions is Open's answer past MaxSessions.
var ErrTooManySessions = fmt.Errorf("too many sessions: the lab keeps at most %d open, each with its connection to the server; reuse names (@alice, a job's name), or use load for many clients", MaxSessions)

// Open is Get for a session a command is about to use: a new one past
// MaxSessions is refused (main never is).
func (s *Set) Open(name string) (*Session, error) {
	s.mu.Lock()
	_, known := s.sessions[name]
	full := len(s.sessions) >= MaxSessions
	s.mu.Unlock()
	if !known && full && name != Main {
		return nil, ErrTooManySessions
	}
	return s.Get(name), nil
}

// Get returns the session called name, creating it (and its connection,
// named on the server after the session) on first use.
func (s *Set) Get(name string) *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.sessions[name]; ok {
		return sess
	}
	serverName := clientName(name)
	if name == Main {
		serverName = "" // the REPL's own connection looks like redis-cli's
	}
	sess := &Session{Name: name, conn: NewConn(s.Target, serverName), set: s}
	s.sessions[name] = sess
	return sess
}

// Names are the sessions so far: those with a connection, and those that
// acted without one (a redlock word talks to its nodes), sorted.
func (s *Set) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for n := range s.sessions {
		names = append(names, n)
	}
	for n := range s.acted {
		if _, ok := s.sessions[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// clientName is a session's name as CLIENT SETNAME takes it: a job named
// after its argument at run time (f "a b" &) may hold a space, which
// Redis refuses, and every command of the session with it.
func clientName(name string) string {
	return strings.Map(func(r rune) rune {
		if r < '!' || r > '~' {
			return '_'
		}
		return r
	}, name)
}

// Retarget points session name at another server (a cluster node): its
// connection is replaced when the target differs.
func (s *Set) Retarget(name string, t Target) {
	sess := s.Get(name)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.conn.target.Addr == t.Addr && sess.conn.target.Network == t.Network {
		return
	}
	old := sess.conn
	sess.conn = NewConn(t, old.name)
	sess.inTx, sess.watching = false, false // a new connection is in neither
	old.Close()
}

// Connect makes t the set's server: every session talks to it from its
// next command on (redis-cli's `connect HOST PORT`). Call it between
// commands, not while a job sends.
func (s *Set) Connect(t Target) {
	s.mu.Lock()
	s.Target = t
	s.mu.Unlock()
	s.Home()
}

// Home points every session that talks to another server (a cluster
// node) back at the set's own, and returns their names, sorted.
func (s *Set) Home() []string {
	s.mu.Lock()
	var away []string
	for name, sess := range s.sessions {
		if t := sess.Target(); t.Addr != s.Target.Addr || t.Network != s.Target.Network {
			away = append(away, name)
		}
	}
	s.mu.Unlock()
	sort.Strings(away)
	for _, name := range away {
		s.Retarget(name, s.Target)
	}
	return away
}

// Observe sets the function every event is passed to (nil: none). It is
// called from the goroutine that ran the command.
func (s *Set) Observe(f func(Event)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observer = f
}

func (s *Set) record(e Event) {
	s.mu.Lock()
	f := s.observer
	s.mu.Unlock()
	if f != nil {
		f(e)
	}
}

// OneShot runs one command on a fresh connection to t and closes it, as a
// separate redis-cli process would: no MULTI or SELECT leaks between calls.
// The event is recorded under the given session name.
func (s *Set) OneShot(ctx context.Context, t Target, sessionName string, args []string) (Event, error) {
	conn := NewConn(t, "")
	defer conn.Close()
	e, err := s.run(ctx, Call{Session: sessionName}, conn, args)
	s.record(e)
	return e, err
}

// Close closes every session's connection.
func (s *Set) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sess := range s.sessions {
		sess.connection().Close()
	}
}
