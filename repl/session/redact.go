package session

import "strings"

// hidden stands in for a secret in anything locklab shows or writes.
const hidden = "(hidden)"

// Redact returns args with the secrets a command carries replaced: AUTH's
// arguments, HELLO's and MIGRATE's AUTH/AUTH2 passwords, CONFIG SET of
// requirepass or masterauth, and ACL SETUSER's >password and #hash rules.
// Timelines, diagrams and expect messages show commands through it.
func Redact(args []string) []string {
	if len(args) == 0 {
		return args
	}
	out := append([]string(nil), args...)
	switch strings.ToUpper(out[0]) {
	case "AUTH":
		for i := 1; i < len(out); i++ {
			out[i] = hidden
		}
	case "HELLO", "MIGRATE":
		redactAfterAuth(out)
	case "CONFIG":
		if len(out) >= 4 && strings.EqualFold(out[1], "SET") {
			for i := 2; i+1 < len(out); i += 2 {
				if k := strings.ToLower(out[i]); k == "requirepass" || k == "masterauth" {
					out[i+1] = hidden
				}
			}
		}
	case "ACL":
		for i := 2; i < len(out); i++ {
			if strings.HasPrefix(out[i], ">") || strings.HasPrefix(out[i], "#") || strings.HasPrefix(out[i], "<") || strings.HasPrefix(out[i], "!") {
				out[i] = out[i][:1] + hidden
			}
		}
	}
	return out
}

// redactAfterAuth hides the password after AUTH USER and AUTH2 USER (HELLO,
// MIGRATE), and after MIGRATE's AUTH PASSWORD.
func redactAfterAuth(out []string) {
	for i := 1; i < len(out); i++ {
		switch strings.ToUpper(out[i]) {
		case "AUTH":
			if strings.EqualFold(out[0], "MIGRATE") && i+1 < len(out) {
				out[i+1] = hidden
			} else if i+2 < len(out) {
				out[i+2] = hidden
			}
		case "AUTH2":
			if i+2 < len(out) {
				out[i+2] = hidden
			}
		}
	}
}
