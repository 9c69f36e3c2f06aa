// Package redlockload is `load --redlock N`: N workers acquire, work and
// release through Redlock on the nodes `redlock up` started (package
// redlock), with clock jumps and crashes every so many grants, and one
// table of what the nodes' answers show (grants, attempts, TWO HOLDERS),
// judged by package quorum as the run's verdict is.
package redlockload
