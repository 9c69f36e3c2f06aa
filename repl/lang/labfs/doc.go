// Package labfs is the view of files a lab was given: the .lab and .sh
// scripts in one folder (the one locklab started in) and below, plus the
// lab's own embedded scripts, and /dev/null. The lab language sees the
// host's file system only through it.
//
// The view is built, not filtered: the interpreter's working folder is
// the virtual Root (/lab), every path it forms is read as a name inside
// that folder, and a name that is not a lab script there is "no such
// file" before anything of the host is looked at. A script is opened
// through an os.Root, so neither `..` nor a symlink leaves the folder; it
// must be a regular file (a FIFO is never waited on), and it is read up to
// MaxScript bytes. What a script holds is never quoted back by the view's
// errors.
package labfs
