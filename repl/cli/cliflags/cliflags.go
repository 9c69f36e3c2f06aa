package cliflags

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Output is how replies are printed.
type Output int

const (
	OutputAuto Output = iota // TTY format on a terminal, raw elsewhere (redis-cli's default)
	OutputRaw                // --raw: always raw
	OutputTTY                // --no-raw: always the terminal format
)

// Options are the connection and output settings redis-cli's flags describe.
// The zero value means "not given"; Set tells which ones were.
type Options struct {
	Host, Socket   string
	Port           int
	User, Password string // Password is a secret: never print it
	DB             int
	RESP3          bool
	TLS            bool
	TLSInsecure    bool
	CACert, SNI    string
	Cert, Key      string
	Output         Output
	ExitOnError    bool          // -e
	Repeat         int           // -r N (0: once; -1: until Ctrl-C)
	Interval       time.Duration // -i SECONDS
	Pipe           bool          // --pipe: stdin goes to the server as it is (mass insertion)
	PipeTimeout    time.Duration // --pipe-timeout SECONDS (30 unless set; 0: wait for ever)
	StdinLastArg   bool          // -x
	NoAuthWarning  bool
	Set            map[string]bool // which of host, port, db, user, password, url were given
}

// Help is redis-cli's options as locklab --help lists them: a new
// option's line goes here, beside its field in Options and its parsing in
// apply (takesValue when it takes one).
const Help = `  -h HOST  -p PORT  -s SOCKET  -a PASSWORD  --user NAME  -n DB
  -u redis://[user:password@]host[:port][/db]  (rediss:// for TLS)  --tls --cacert --cert --key --sni --insecure
  -3 (RESP3)  --raw  --no-raw  -e (exit 1 on a Redis error)  -r N  -i SECONDS  -x  --no-auth-warning
  --pipe [--pipe-timeout SECONDS]  (mass insertion: stdin sent as it is, replies counted)
`

// UsageError is a bad option, worded as redis-cli words it.
type UsageError struct{ Arg, Reason string }

func (e *UsageError) Error() string {
	if e.Reason != "" {
		return e.Reason
	}
	arg := e.Arg
	if name, _, found := strings.Cut(arg, "="); found {
		arg = name + "=..." // --pass=secret: the value may be a password
	} else if strings.HasPrefix(arg, "-a") && len(arg) > 2 {
		arg = "-a..." // -asecret: a password glued to -a, which redis-cli refuses too
	}
	return fmt.Sprintf("Unrecognized option or bad number of args for: '%s'", arg)
}

// Parse reads redis-cli options from the front of args into o and returns
// the remaining words (the command). Options already in o are overridden.
func Parse(o *Options, args []string) ([]string, error) {
	for len(args) > 0 && IsFlag(args[0]) {
		if args[0] == "--" {
			return args[1:], nil
		}
		n, err := ParseFlag(o, args)
		if err != nil {
			return nil, err
		}
		args = args[n:]
	}
	return args, nil
}

// IsFlag reports whether a word is an option rather than the start of the
// command. Negative numbers are arguments (`INCRBY k -1` starts with INCRBY
// anyway, but `-1` alone is a word).
func IsFlag(word string) bool {
	if word == "-2" || word == "-3" {
		return true // RESP2 / RESP3
	}
	return strings.HasPrefix(word, "-") && word != "-" && !isNumber(word)
}

// ParseFlag reads the one option at the front of args (and its value, if
// it takes one) into o, and says how many words it used.
func ParseFlag(o *Options, args []string) (int, error) {
	if o.Set == nil {
		o.Set = map[string]bool{}
	}
	flag, value, used := args[0], "", 1
	if takesValue(flag) {
		if len(args) < 2 {
			return 0, &UsageError{Arg: flag}
		}
		value, used = args[1], 2
	}
	return used, o.apply(flag, value)
}

// takesValue reports whether flag is followed by its value (a switch, not
// a map built at start-up).
func takesValue(flag string) bool {
	switch flag {
	case "-h", "-p", "-s", "-a", "--pass", "--user", "-u", "-n", "-r", "-i",
		"--cacert", "--sni", "--cert", "--key", "--pipe-timeout":
		return true
	}
	return false
}

func isNumber(s string) bool { _, err := strconv.Atoi(s); return err == nil }

func (o *Options) apply(flag, value string) error {
	switch flag {
	case "-h":
		o.Host, o.Set["host"] = value, true
	case "-p":
		return o.applyInt(flag, value, &o.Port, "port")
	case "-s":
		o.Socket, o.Set["socket"] = value, true
	case "-a", "--pass":
		o.Password, o.Set["password"] = value, true
	case "--user":
		o.User, o.Set["user"] = value, true
	case "-u":
		return o.applyURL(value)
	case "-n":
		return o.applyInt(flag, value, &o.DB, "db")
	case "-r":
		if value == "-1" { // redis-cli: forever
			o.Repeat, o.Set["repeat"] = -1, true
			return nil
		}
		return o.applyInt(flag, value, &o.Repeat, "repeat")
	case "--cacert":
		o.CACert = value
	case "--sni":
		o.SNI = value
	case "--cert":
		o.Cert = value
	case "--key":
		o.Key = value
	case "--pipe-timeout":
		secs, err := strconv.Atoi(value)
		if err != nil || secs < 0 {
			return &UsageError{Arg: flag}
		}
		o.PipeTimeout, o.Set["pipe-timeout"] = time.Duration(secs)*time.Second, true
	case "-i":
		secs, err := strconv.ParseFloat(value, 64)
		if err != nil || secs < 0 {
			return &UsageError{Arg: flag}
		}
		o.Interval = time.Duration(secs * float64(time.Second))
	default:
		return o.applySwitch(flag)
	}
	return nil
}

func (o *Options) applySwitch(flag string) error {
	switch flag {
	case "-3":
		o.RESP3 = true
	case "-2":
		o.RESP3 = false
	case "--raw":
		o.Output = OutputRaw
	case "--no-raw":
		o.Output = OutputTTY
	case "-e":
		o.ExitOnError = true
	case "-x":
		o.StdinLastArg = true
	case "--tls":
		o.TLS = true
	case "--insecure":
		o.TLSInsecure = true
	case "--no-auth-warning":
		o.NoAuthWarning = true
	case "--pipe":
		o.Pipe = true
	case "--csv", "--json", "--quoted-json", "--scan", "--bigkeys", "--stat",
		"--latency", "--eval", "--ldb", "-c", "-d", "-D", "--cluster":
		return &UsageError{Arg: flag, Reason: fmt.Sprintf(
			"locklab: redis-cli's %s is not supported here; run the real redis-cli for it", flag)}
	default:
		return &UsageError{Arg: flag}
	}
	return nil
}

func (o *Options) applyInt(flag, value string, dst *int, name string) error {
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return &UsageError{Arg: flag}
	}
	*dst, o.Set[name] = n, true
	return nil
}
