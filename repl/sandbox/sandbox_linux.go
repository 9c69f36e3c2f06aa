//go:build linux

package sandbox

import (
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// KernelABI is the running kernel's Landlock ABI version, 0 when it has
// none (too old, or Landlock not enabled at boot).
func KernelABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// Restrict restricts this process and the children it starts from then
// on, for ever, to the file access p allows; the network is left alone.
// It asks for Landlock ABI 5's rights (files, truncation, device ioctl)
// and takes what the kernel has of them. On a kernel without Landlock it
// enforces nothing, and says so.
func Restrict(p Policy) (Status, error) {
	st := Status{ABI: KernelABI()}
	if st.ABI == 0 {
		st.Reason = "this kernel has no Landlock (too old, or not enabled at boot)"
		return st, nil
	}
	var rules []landlock.Rule
	for _, r := range p {
		info, err := os.Stat(r.Path)
		if err != nil {
			st.Skipped = append(st.Skipped, r)
			continue
		}
		rules = append(rules, landlock.PathAccess(rights(r.Access, info.IsDir()), r.Path).IgnoreIfMissing())
		st.Rules = append(st.Rules, r)
	}
	if err := landlock.V5.BestEffort().RestrictPaths(rules...); err != nil {
		return Status{ABI: st.ABI, Reason: err.Error()}, err
	}
	st.Enforced = true
	return st, nil
}

// rights are Landlock's access rights for a, on a folder (and all below
// it) or a file. Moving a file to another folder (Landlock's "refer") is
// never allowed.
func rights(a Access, dir bool) landlock.AccessFSSet {
	const (
		read   = ll.AccessFSReadFile
		list   = ll.AccessFSReadDir
		run    = ll.AccessFSExecute
		write  = ll.AccessFSWriteFile | ll.AccessFSTruncate
		create = ll.AccessFSMakeReg | ll.AccessFSMakeDir
		remove = ll.AccessFSRemoveFile | ll.AccessFSRemoveDir
	)
	set := map[Access]landlock.AccessFSSet{Read: read, ReadExec: read | run, ReadWrite: read | write, Create: write}[a]
	if dir {
		set |= map[Access]landlock.AccessFSSet{Read: list, ReadExec: list, ReadWrite: list | create | remove, Create: ll.AccessFSMakeReg}[a]
	}
	return set
}
