package server

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mrserver "github.com/alicebob/miniredis/v2/server"
)

// The embedded Redis runs scripts in gopher-lua with more of Lua than
// Redis gives a script: dofile, loadfile and require read host files, and
// debug, getfenv, loadstring and _G hand a script the globals to reach
// them by a name it builds. A script whose code (not its strings or
// comments) names one of them is refused as Redis refuses a script that
// reads a global it lacks; print, which Redis sends to its log, would
// write on the lab's terminal.
var hostReaching = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(dofile|loadfile|require|module|package|debug|getfenv|setfenv|loadstring|load|_G|print|newproxy)\b`)
})

// scriptGuard is the embedded server's guard on scripts: one that names a
// host-reaching global is refused, one that ends in a panic of the
// server (a script returning a Lua function) is an error reply and a
// closed connection, not the end of locklab, and one that runs on holds
// the others back only as long as redis-server would (see busy).
type scriptGuard struct {
	srv       *mrserver.Server
	unlock    func()        // the server's lock, which a panicking script leaves held
	scripts   atomic.Int32  // how many scripts the guard is dispatching (len(running))
	busyAfter time.Duration // see busy
	mu        sync.Mutex
	running   map[*mrserver.Peer]time.Time // peers whose script the guard is dispatching, since when
	changed   chan struct{}                // closed, and made anew, when a script ends
	named     map[string]string            // hostReachingName's answers, by body (under mu)
}

// script handles EVAL, EVALSHA and SCRIPT LOAD, and says whether it did.
func (g *scriptGuard) script(p *mrserver.Peer, cmd string, args []string) (handled bool) {
	if body, ok := scriptBody(cmd, args); ok {
		if name := g.hostReachingName(body); name != "" {
			p.WriteError("ERR user_script:1: Script attempted to access nonexistent global variable '" + name + "' (the embedded Redis, like Redis, gives scripts no way to the host)")
			return true
		}
	}
	if cmd != "EVAL" && cmd != "EVALSHA" && cmd != "EVAL_RO" && cmd != "EVALSHA_RO" || !g.enter(p) {
		return false
	}
	defer g.leave(p)
	defer func() {
		if recover() != nil {
			handled = true // else the server would run the command again
			g.unlock()
			p.WriteError("ERR the script returned a value Redis cannot send (a Lua function or userdata)")
			p.Close()
		}
	}()
	g.srv.Dispatch(p, append([]string{cmd}, args...))
	return true
}

// hostReachingName is the first host-reaching global that body's code names,
// or "". The answers for short bodies are remembered: a search sends the
// same few scripts in every schedule, on a server reset in place.
func (g *scriptGuard) hostReachingName(body string) string {
	if len(body) > 4<<10 {
		return hostReaching().FindString(luaCode(body))
	}
	g.mu.Lock()
	name, ok := g.named[body]
	g.mu.Unlock()
	if ok {
		return name
	}
	name = hostReaching().FindString(luaCode(body))
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.named == nil || len(g.named) >= 1024 {
		g.named = map[string]string{}
	}
	g.named[body] = name
	return name
}

// scriptBody is the Lua source a command carries, if any.
func scriptBody(cmd string, args []string) (string, bool) {
	switch {
	case (cmd == "EVAL" || cmd == "EVAL_RO") && len(args) > 0:
		return args[0], true
	case cmd == "SCRIPT" && len(args) > 1 && strings.EqualFold(args[0], "LOAD"):
		return args[1], true
	}
	return "", false
}

// enter marks p's script as dispatched by the guard; false when it is
// already (the guard's own Dispatch passing the hook again).
func (g *scriptGuard) enter(p *mrserver.Peer) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.running[p]; ok {
		return false
	}
	g.running[p] = time.Now()
	g.scripts.Add(1)
	return true
}

// leave marks p's script ended, and tells the commands waiting on it.
func (g *scriptGuard) leave(p *mrserver.Peer) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.running, p)
	g.scripts.Add(-1)
	close(g.changed)
	g.changed = make(chan struct{})
}

// luaCode is a Lua chunk with its comments and string literals blanked
// out: a name inside them reaches nothing.
func luaCode(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); {
		switch {
		case strings.HasPrefix(src[i:], "--"):
			i += skipComment(src[i+2:]) + 2
			b.WriteByte(' ')
		case src[i] == '"' || src[i] == '\'':
			i += skipQuoted(src[i:])
			b.WriteString(`""`)
		case src[i] == '[' && longBracket(src[i:]) >= 0:
			i += skipLong(src[i:])
			b.WriteString(`""`)
		default:
			b.WriteByte(src[i])
			i++
		}
	}
	return b.String()
}

// longBracket is the level of a long bracket [[ or [==[ opening s, or -1.
func longBracket(s string) int {
	level := 1
	for level < len(s) && s[level] == '=' {
		level++
	}
	if level < len(s) && s[0] == '[' && s[level] == '[' {
		return level - 1
	}
	return -1
}

// skipLong is the length of the long string or comment opening s, to its
// closing bracket of the same level (or the end).
func skipLong(s string) int {
	level := longBracket(s)
	closing := "]" + strings.Repeat("=", level) + "]"
	if end := strings.Index(s[level+2:], closing); end >= 0 {
		return level + 2 + end + len(closing)
	}
	return len(s)
}

// skipComment is the length of a comment's text after its --.
func skipComment(s string) int {
	if longBracket(s) >= 0 {
		return skipLong(s)
	}
	if end := strings.IndexByte(s, '\n'); end >= 0 {
		return end
	}
	return len(s)
}

// skipQuoted is the length of the quoted string opening s, escapes and
// all (or to the end).
func skipQuoted(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case s[0]:
			return i + 1
		}
	}
	return len(s)
}
