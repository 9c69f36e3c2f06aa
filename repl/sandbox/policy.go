package sandbox

import (
	"debug/elf"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// host is every path of the host that any run of locklab may use once
// restricted: this table and Run's rows (For) are the whole policy.
// Nothing here is written but /dev/null; only redis-server and its
// dynamic loader (Run's rows) may be run. The terminal is not here: locklab
// uses it through the descriptors it started with, which the
// restriction does not touch.
var host = Policy{
	// redis-server's shared libraries, locales and the loader's cache
	// (locklab's own process needs none of them once running).
	{"/lib", Read, "shared libraries (redis-server's)"},
	{"/lib64", Read, "shared libraries (redis-server's)"},
	{"/usr/lib", Read, "shared libraries, locales, OpenSSL's configuration (redis-server's)"},
	{"/usr/lib64", Read, "shared libraries (redis-server's)"},
	{"/etc/ld.so.cache", Read, "the dynamic loader's cache"},
	{"/etc/ld.so.preload", Read, "the dynamic loader's preloads"},
	{"/usr/share/locale/locale.alias", Read, "locale names (redis-server's libc)"},
	{"/etc/ssl/openssl.cnf", Read, "OpenSSL's configuration (redis-server's libssl)"},
	{"/etc/localtime", Read, "the local time zone (redis-server's log)"},
	{"/usr/share/zoneinfo", Read, "time zones (/etc/localtime links there)"},

	// Name resolution, for -h HOST and redis-cli -h HOST.
	{"/etc/hosts", Read, "name resolution"},
	{"/etc/resolv.conf", Read, "name resolution"},
	{"/etc/nsswitch.conf", Read, "name resolution"},
	{"/etc/host.conf", Read, "name resolution"},
	{"/etc/gai.conf", Read, "name resolution"},
	{"/etc/services", Read, "port names"},

	// CA certificates, for --tls without --cacert (not /etc/ssl/private).
	{"/etc/ssl/certs", Read, "CA certificates (--tls)"},
	{"/etc/ssl/cert.pem", Read, "CA certificates (--tls)"},
	{"/etc/ssl/ca-bundle.pem", Read, "CA certificates (--tls)"},
	{"/etc/pki/tls/certs", Read, "CA certificates (--tls)"},
	{"/etc/pki/tls/cacert.pem", Read, "CA certificates (--tls)"},
	{"/etc/pki/ca-trust/extracted", Read, "CA certificates (--tls)"},
	{"/usr/share/ca-certificates", Read, "CA certificates (/etc/ssl/certs links there)"},
	{"/usr/local/share/ca-certificates", Read, "CA certificates (/etc/ssl/certs links there)"},

	// What Go's runtime and redis-server read of the machine.
	{"/proc/self", Read, "this process's own /proc entries (Go's runtime)"},
	{"/sys/devices/system/cpu", Read, "the CPUs (Go's runtime)"},
	{"/proc/sys/net/core/somaxconn", Read, "the listen backlog (Go, redis-server)"},
	{"/proc/sys/vm/overcommit_memory", Read, "redis-server's start-up check"},
	{"/sys/kernel/mm/transparent_hugepage", Read, "redis-server's start-up check"},
	{"/sys/devices/system/clocksource", Read, "redis-server's start-up check"},

	// Devices.
	{"/dev/null", ReadWrite, "the lab's /dev/null; redis-server's stdin and output"},
	{"/dev/urandom", Read, "randomness"},
	{"/dev/random", Read, "randomness"},
}

// Run is what one run of locklab needs beyond the host table.
type Run struct {
	StartDir    string   // the folder locklab started in: its lab scripts are read
	Interactive bool     // the REPL at a terminal: files named at its prompt are written in StartDir
	Scripts     []string // scripts named on the command line: their folders are read
	Outputs     []string // files named on the command line to write (--svg, --mermaid, explore --save)
	HistoryFile string   // the REPL's history (made before the restriction)
	TempDir     string   // where cluster and redlock --real servers get their folders
	RedisServer string   // the redis-server program on PATH, "" when none
}

// Here is a Run in this process's start folder, temporary folder and
// PATH.
func Here() Run {
	run := InStartDir()
	run.TempDir = os.TempDir()
	run.RedisServer, _ = exec.LookPath("redis-server")
	return run
}

// InStartDir is a Run in this process's start folder that starts no
// redis-server: it has no rules for the program, its dynamic loader or
// its servers' temporary folder, and does not look for it on PATH.
func InStartDir() Run {
	dir, _ := os.Getwd()
	return Run{StartDir: dir}
}

// For is the policy of run: the host table and run's own rows.
func For(run Run) Policy {
	p := append(Policy{}, host...)
	start := Rule{run.StartDir, Read, "the start folder: its lab scripts"}
	if run.Interactive {
		start = Rule{run.StartDir, ReadWrite, "the start folder: files named at the REPL's prompt (explore --save, timeline --svg)"}
	}
	p = append(p, start,
		Rule{run.TempDir, ReadWrite, "the temporary folder: cluster and redlock --real servers' folders"},
		Rule{run.HistoryFile, ReadWrite, "the REPL's history file"})
	for _, s := range run.Scripts {
		p = append(p, Rule{filepath.Dir(absolute(s)), Read, "the folder of a script named on the command line"})
	}
	for _, out := range run.Outputs {
		p = append(p, outputRule(out))
	}
	p = append(p, certRules()...)
	p = append(p, programRules(run.RedisServer)...)
	return dropEmpty(p)
}

// outputRule lets a file named on the command line be written: the file
// itself when it is there, else its folder, to make it in (and any other
// file: Landlock's rules are on paths that exist).
func outputRule(file string) Rule {
	file = absolute(file)
	if info, err := os.Lstat(file); err == nil && info.Mode().IsRegular() {
		return Rule{file, Create, "an output file named on the command line"}
	}
	return Rule{filepath.Dir(file), Create, "the folder of a new output file named on the command line (" + filepath.Base(file) + ")"}
}

// certRules are the CA certificates $SSL_CERT_FILE and $SSL_CERT_DIR
// name, for --tls.
func certRules() Policy {
	var p Policy
	if f := os.Getenv("SSL_CERT_FILE"); f != "" {
		p = append(p, Rule{f, Read, "CA certificates ($SSL_CERT_FILE)"})
	}
	for _, d := range filepath.SplitList(os.Getenv("SSL_CERT_DIR")) {
		p = append(p, Rule{d, Read, "CA certificates ($SSL_CERT_DIR)"})
	}
	return p
}

// programRules let program (redis-server) run: the file, the dynamic
// loader its ELF header names, and the library folder beside it
// (PREFIX/lib for PREFIX/bin).
func programRules(program string) Policy {
	if program == "" {
		return nil
	}
	real, err := filepath.EvalSymlinks(program)
	if err != nil {
		return nil
	}
	p := Policy{{real, ReadExec, "redis-server, for cluster up and redlock up --real"},
		{filepath.Join(filepath.Dir(filepath.Dir(real)), "lib"), Read, "redis-server's libraries"}}
	f, err := elf.Open(real)
	if err != nil {
		return p
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type == elf.PT_INTERP {
			interp, _ := io.ReadAll(prog.Open())
			p = append(p, Rule{strings.TrimRight(string(interp), "\x00"), ReadExec, "redis-server's dynamic loader"})
		}
	}
	return p
}

// absolute is path from the start folder (the process's working folder).
func absolute(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// dropEmpty drops the rules of a Run field left empty, and a rule that
// repeats an earlier one's path and access.
func dropEmpty(p Policy) Policy {
	out := p[:0]
	for _, r := range p {
		if r.Path != "" && !slices.ContainsFunc(out, func(o Rule) bool { return o.Path == r.Path && o.Access == r.Access }) {
			out = append(out, r)
		}
	}
	return out
}
