package commands

import "strings"

// Hint returns the grey hint redis-cli (7.2+) shows after what the user has
// typed: the part of the command's syntax still to type. words is the
// input split into words (quotes already removed); trailingSpace says
// whether the input ends in white space. The last word is not matched
// until a space follows it, so "SET key value EX" still shows the whole
// option list while "SET key value EX " shows "seconds [NX|XX] [GET]".
//
// The result is "" when there is nothing to show: an unknown command, a
// word that does not fit the syntax ("SET key value FOOBAR "), or nothing
// left to type. It never starts or ends with a space; like redis-cli, a
// caller that shows it right after a word without a trailing space should
// put one space in front of it.
//
// Hint follows redis-cli's algorithm with one fix: redis-cli closes a
// bracket it never opened once an optional repeating argument has begun
// ("MIGRATE … KEYS k " gives "[key ...]]"); Hint leaves it out.
func Hint(words []string, trailingSpace bool) string {
	n := len(words)
	if !trailingSpace {
		n--
	}
	if n < 0 {
		return ""
	}
	c, cmdlen := lookupPrefix(words[:n])
	if c == nil {
		return ""
	}
	return makeHint(c.Args, words[cmdlen:n])
}

// lookupPrefix is Lookup restricted to the words given, as redis-cli's
// findHelpEntry: the longest command name that the words start with.
func lookupPrefix(words []string) (*Command, int) {
	if len(words) == 0 {
		return nil, 0
	}
	return Lookup(words)
}

// The functions below port redis-cli's hint builder (src/redis-cli.c in
// Redis 7.2: makeHint, matchArgs and friends, addHintForArguments and
// friends). redis-cli keeps the match state in the argument structs; here it
// lives in a parallel tree of matchState so the table stays read-only.

type matchState struct {
	arg          *Arg
	matched      int
	matchedToken bool
	matchedName  bool
	matchedAll   bool
	sub          []*matchState
}

func newStates(args []Arg) []*matchState {
	if len(args) == 0 {
		return nil
	}
	out := make([]*matchState, len(args))
	for i := range args {
		out[i] = &matchState{arg: &args[i], sub: newStates(args[i].Args)}
	}
	return out
}

func (s *matchState) clear() {
	s.matched, s.matchedToken, s.matchedName, s.matchedAll = 0, false, false, false
	for _, c := range s.sub {
		c.clear()
	}
}

// makeHint matches input against args and, if every word matched,
// describes what is left to type. With no input it is the syntax of args.
func makeHint(args []Arg, input []string) string {
	if len(args) == 0 {
		return ""
	}
	st := newStates(args)
	if len(input) > 0 && matchArgs(input, st) != len(input) {
		return ""
	}
	var b strings.Builder
	addHintForArguments(&b, st, " ")
	// redis-cli's hint suite ignores trailing spaces: a separator is put
	// after a non-last argument even when nothing follows it.
	return strings.TrimRight(b.String(), " ")
}

// ---- matching ----

// matchArgs matches as many input words as it can against args, and
// returns how many it matched (0 if a required argument did not match).
func matchArgs(words []string, args []*matchState) int {
	next := 0
	for a := 0; next != len(words) && a != len(args); a++ {
		var n int
		if args[a].arg.Is(Optional) {
			// Consecutive optional arguments may come in any order:
			// match them as a group.
			last := a
			for last < len(args) && args[last].arg.Is(Optional) {
				last++
			}
			n = matchOptionalArgs(words[next:], args[a:last])
			a = last - 1
		} else {
			n = matchArg(words[next:], args[a])
			if n == 0 {
				return 0
			}
		}
		next += n
	}
	return next
}

func matchOptionalArgs(words []string, args []*matchState) int {
	next, last := 0, -1
	for next != len(words) {
		n, which := matchOneOptionalArg(words[next:], args)
		if n == 0 {
			break
		}
		// A later optional argument started: the earlier one is done, so
		// stop offering to complete it.
		if last != -1 {
			args[last].matchedAll = true
		}
		last = which
		next += n
	}
	return next
}

func matchOneOptionalArg(words []string, args []*matchState) (int, int) {
	for i := 0; len(words) != 0 && i != len(args); i++ {
		if args[i].matched != 0 {
			continue
		}
		if n := matchArg(words, args[i]); n != 0 {
			return n, i
		}
	}
	return 0, -1
}

// matchArg matches the argument, as many times as it may repeat.
func matchArg(words []string, s *matchState) int {
	once := matchArgOnce(words, s)
	if !s.arg.Is(Multiple) {
		return once
	}
	matched := once
	for s.matchedAll && matched < len(words) {
		s.clear()
		if s.arg.HasToken() && !s.arg.Is(MultipleToken) {
			// The token came once, before the first repetition.
			once = matchNoTokenArg(words[matched:], s)
			if s.matched != 0 {
				s.matchedToken = true
			}
		} else {
			once = matchArgOnce(words[matched:], s)
		}
		matched += once
	}
	s.matchedAll = false // more repetitions may follow
	return matched
}

func matchArgOnce(words []string, s *matchState) int {
	if s.arg.HasToken() {
		if !strings.EqualFold(s.arg.Token, words[0]) {
			return 0
		}
		s.matchedToken = true
		s.matched = 1
		if s.arg.Type == TypePureToken {
			s.matchedAll = true
			return 1
		}
		if len(words) == 1 {
			return 1
		}
		words = words[1:]
	}
	if matchNoTokenArg(words, s) == 0 {
		return 0
	}
	return s.matched
}

func matchNoTokenArg(words []string, s *matchState) int {
	switch s.arg.Type {
	case TypeBlock:
		s.matched += matchArgs(words, s.sub)
		s.matchedAll = true
		for _, c := range s.sub {
			if !c.matchedAll {
				s.matchedAll = false
			}
		}
	case TypeOneOf:
		for _, c := range s.sub {
			if matchArg(words, c) != 0 {
				s.matched += c.matched
				s.matchedAll = c.matchedAll
				break
			}
		}
	case TypeInteger, TypeUnixTime:
		if scanInteger(words[0]) {
			s.matched++
			s.matchedName, s.matchedAll = true, true
		} else {
			s.matched, s.matchedName = 0, false
		}
	case TypeDouble:
		if scanDouble(words[0]) {
			s.matched++
			s.matchedName, s.matchedAll = true, true
		} else {
			s.matched, s.matchedName = 0, false
		}
	default:
		s.matched++
		s.matchedName, s.matchedAll = true, true
	}
	return s.matched
}

// scanInteger is sscanf(w, "%lld") == 1: optional leading space and
// sign, then at least one digit; anything may follow.
func scanInteger(w string) bool {
	w = strings.TrimLeft(w, " \t\n\v\f\r")
	if w != "" && (w[0] == '+' || w[0] == '-') {
		w = w[1:]
	}
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

// scanDouble is sscanf(w, "%lf") == 1: strtod accepts a non-empty prefix
// of w (a digit, or "." and a digit, or inf/nan, after space and sign).
func scanDouble(w string) bool {
	w = strings.TrimLeft(w, " \t\n\v\f\r")
	if w != "" && (w[0] == '+' || w[0] == '-') {
		w = w[1:]
	}
	switch {
	case w == "":
		return false
	case w[0] >= '0' && w[0] <= '9':
		return true
	case w[0] == '.':
		return len(w) > 1 && w[1] >= '0' && w[1] <= '9'
	}
	p := strings.ToLower(w[:min(3, len(w))])
	return p == "inf" || p == "nan"
}

// ---- describing what is left ----

func addHintForArguments(b *strings.Builder, args []*matchState, sep string) {
	mark := b.Len()
	addSep := func(last bool) {
		if b.Len() > mark && !last {
			b.WriteString(sep)
			mark = b.Len()
		}
	}
	for i := 0; i < len(args); i++ {
		if !args[i].arg.Is(Optional) {
			addHintForArgument(b, args[i])
			addSep(i == len(args)-1)
			continue
		}
		// A run of optional arguments: the one being typed comes first.
		j, incomplete := i, -1
		for ; j < len(args); j++ {
			if !args[j].arg.Is(Optional) {
				break
			}
			if args[j].matched != 0 && !args[j].matchedAll {
				addHintForArgument(b, args[j])
				addSep(i == len(args)-1)
				incomplete = j
			}
		}
		// The rest of the run, unless the required argument after it has
		// begun.
		if j == len(args) || args[j].matched == 0 {
			for ; i < j; i++ {
				if incomplete != i {
					addHintForArgument(b, args[i])
					addSep(i == len(args)-1)
				}
			}
		}
		i = j - 1
	}
}

func addHintForArgument(b *strings.Builder, s *matchState) {
	if s.matchedAll {
		return
	}
	a := s.arg
	bracket := a.Is(Optional) && s.matched == 0
	if bracket {
		b.WriteString("[")
	}
	if a.HasToken() && !s.matchedToken {
		writeOrEmpty(b, a.Token)
		if a.Type != TypePureToken {
			b.WriteString(" ")
		}
	}
	switch a.Type {
	case TypeOneOf:
		if s.matched == 0 {
			addHintForArguments(b, s.sub, "|")
		} else {
			for _, c := range s.sub {
				if c.matched != 0 {
					addHintForArgument(b, c)
				}
			}
		}
	case TypeBlock:
		addHintForArguments(b, s.sub, " ")
	case TypePureToken:
	default:
		if !s.matchedName {
			writeOrEmpty(b, a.Name)
		}
	}
	addHintForRepeatedArgument(b, s)
	// redis-cli tests arg->matched again here, after the repeated part has
	// cleared it, and so closes a bracket it never opened once an optional
	// repeating argument has begun ("MIGRATE … KEYS k " hints "[key ...]]").
	// This closes only what it opened.
	if bracket {
		b.WriteString("]")
	}
}

// addHintForRepeatedArgument adds the "[… ...]" part of a repeating
// argument. It is a fixed unit, so its match state is cleared first.
func addHintForRepeatedArgument(b *strings.Builder, s *matchState) {
	a := s.arg
	if !a.Is(Multiple) {
		return
	}
	s.clear()
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	b.WriteString("[")
	if a.Is(MultipleToken) {
		writeOrEmpty(b, a.Token)
		if a.Type != TypePureToken {
			b.WriteString(" ")
		}
	}
	switch a.Type {
	case TypeOneOf:
		addHintForArguments(b, s.sub, "|")
	case TypeBlock:
		addHintForArguments(b, s.sub, " ")
	case TypePureToken:
	default:
		writeOrEmpty(b, a.Name)
	}
	b.WriteString(" ...]")
}

// writeOrEmpty writes s, or "" (two double quotes) for an empty token.
func writeOrEmpty(b *strings.Builder, s string) {
	if s == "" {
		s = `""`
	}
	b.WriteString(s)
}
