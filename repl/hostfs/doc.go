// Package hostfs keeps the host's file system out of the lab: what a
// shell builtin line may not do (cd, set +f, a file test on a host path:
// Refusal), and what the interpreter may see of files (Files: the lab's
// own scripts, in the folder locklab started in or embedded, and
// /dev/null; every other path is "no such file").
package hostfs
