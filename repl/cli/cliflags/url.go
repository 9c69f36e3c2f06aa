package cliflags

import (
	"net/url"
	"strconv"
	"strings"
)

// applyURL reads redis://[[user]:password@]host[:port][/db] (and rediss://
// for TLS), as redis-cli -u does. The error never repeats the URL: it may
// hold a password.
func (o *Options) applyURL(raw string) error {
	bad := &UsageError{Reason: "Invalid URI scheme or malformed URI given to -u: expected redis://[[user]:password@]host[:port][/db] or rediss://..."}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return bad
	}
	o.TLS = u.Scheme == "rediss"
	o.Host, o.Set["host"] = u.Hostname(), true
	if p := u.Port(); p != "" {
		if err := o.applyInt("-u", p, &o.Port, "port"); err != nil {
			return bad
		}
	}
	if u.User != nil {
		if name := u.User.Username(); name != "" {
			o.User, o.Set["user"] = name, true
		}
		if pw, ok := u.User.Password(); ok {
			o.Password, o.Set["password"] = pw, true
		}
	}
	if db := strings.Trim(u.Path, "/"); db != "" {
		n, err := strconv.Atoi(db)
		if err != nil || n < 0 {
			return bad
		}
		o.DB, o.Set["db"] = n, true
	}
	return nil
}
