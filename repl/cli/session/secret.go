package session

import "strings"

// hidden stands in for a secret in anything locklab shows or writes.
const hidden = "(hidden)"

// CarriesSecret reports whether a command, as sent to a server (its words
// after the shell expanded them), carries a secret. The REPL leaves an
// entry that sent one out of its history, however it was spelled (see
// WatchSecrets); secretWords is the rule.
func CarriesSecret(args []string) bool { return len(secretWords(args)) > 0 }

// Redact returns args with the secrets a command carries replaced (see
// secretWords); an ACL rule keeps its first character, which says what
// kind of rule it is. Timelines, diagrams and expect messages show
// commands through it.
func Redact(args []string) []string {
	if len(args) == 0 {
		return args
	}
	out := append([]string(nil), args...)
	for _, i := range secretWords(args) {
		if strings.EqualFold(out[0], "ACL") {
			out[i] = out[i][:1] + hidden
		} else {
			out[i] = hidden
		}
	}
	return out
}

// RedactText returns text, a reply to args, with the secrets args carry
// replaced wherever they appear in it: an unknown command's error quotes
// its arguments (ERR unknown command `CONFIG`, with args beginning with:
// `SET`, `requirepass`, `pw`).
func RedactText(args []string, text string) string {
	for _, i := range secretWords(args) {
		if args[i] != "" {
			text = strings.ReplaceAll(text, args[i], hidden)
		}
	}
	return text
}

// secretWords is the one rule for what is a secret: the indexes of the
// words of a command that are passwords, hashes of passwords, or the
// account a replica logs in with. They are every argument of AUTH (user
// and password, whatever their number); the password after HELLO's AUTH
// and MIGRATE's AUTH and AUTH2; the value CONFIG SET gives a setting
// whose name holds "pass" or "auth" (requirepass, masterauth,
// tls-key-file-pass ...) or masteruser, as do SENTINEL SET and SENTINEL
// CONFIG SET; and ACL SETUSER's password rules (>pw, <pw, #hash, !hash).
func secretWords(args []string) []int {
	if len(args) < 2 {
		return nil
	}
	switch {
	case strings.EqualFold(args[0], "AUTH"):
		return from(1, len(args))
	case strings.EqualFold(args[0], "HELLO"), strings.EqualFold(args[0], "MIGRATE"):
		return passwordsAfterAuth(args)
	case strings.EqualFold(args[0], "CONFIG") && strings.EqualFold(args[1], "SET"):
		return secretSettings(args, 2)
	case strings.EqualFold(args[0], "SENTINEL") && strings.EqualFold(args[1], "SET"):
		return secretSettings(args, 3) // SENTINEL SET master name value ...
	case strings.EqualFold(args[0], "SENTINEL") && strings.EqualFold(args[1], "CONFIG") && len(args) > 2 && strings.EqualFold(args[2], "SET"):
		return secretSettings(args, 3)
	case strings.EqualFold(args[0], "ACL") && strings.EqualFold(args[1], "SETUSER"):
		return passwordRules(args)
	}
	return nil
}

// from is the indexes lo to hi-1.
func from(lo, hi int) []int {
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// passwordsAfterAuth finds the password after AUTH USER and AUTH2 USER
// (HELLO, MIGRATE), and after MIGRATE's AUTH PASSWORD.
func passwordsAfterAuth(args []string) []int {
	var out []int
	for i := 1; i < len(args); i++ {
		at := i + 2 // AUTH USER PASSWORD, AUTH2 USER PASSWORD
		switch {
		case strings.EqualFold(args[i], "AUTH") && strings.EqualFold(args[0], "MIGRATE"):
			at = i + 1 // MIGRATE ... AUTH PASSWORD
		case !strings.EqualFold(args[i], "AUTH") && !strings.EqualFold(args[i], "AUTH2"):
			continue
		}
		if at < len(args) {
			out = append(out, at)
		}
	}
	return out
}

// secretSettings finds, among the name-value pairs that start at first,
// the values of the settings that hold credentials.
func secretSettings(args []string, first int) []int {
	var out []int
	for i := first; i+1 < len(args); i += 2 {
		name := strings.ToLower(args[i])
		if strings.Contains(name, "pass") || strings.Contains(name, "auth") || name == "masteruser" {
			out = append(out, i+1)
		}
	}
	return out
}

// passwordRules finds ACL SETUSER's rules that add or remove a password
// or its hash, after the user's name.
func passwordRules(args []string) []int {
	var out []int
	for i := 3; i < len(args); i++ {
		if r := args[i]; r != "" && strings.ContainsRune("><#!", rune(r[0])) {
			out = append(out, i)
		}
	}
	return out
}
